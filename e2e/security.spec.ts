// Account security end to end (docs/security.md): a new owner turns on two-factor by
// scanning (here: reading) the secret the page shows and computing the code with otpauth
// (their other browser, signed in with the password alone, is signed out), signs out, signs
// in with a code, then with a recovery code (which then works no more).
// Then "Forgot password" through the emailed link (read with `mail:list`: the e2e app runs
// without SMTP_URL, so emails are kept in the outbox), after which the session another
// browser held is signed out.
import { execFileSync } from "node:child_process";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expectAccessible, hydrated, saveScreenshot } from "./helpers";

const stamp = String(Date.now()).slice(-7);
const PASSWORD = "a-long-password-1";

/** The code an authenticator app would show for `secret` at `at` (30 s steps, 6 digits). */
const codeFor = (secret: string, at: number) =>
  new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: at });

/** The newest link in an email to `to` whose path contains `part` (`npm run -s cli -- mail:list`). */
function linkInMail(to: string, part: string): string {
  const out = execFileSync("node", ["scripts/run.mjs", "cli", "mail:list", "--to", to, "--json"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "", LOG_LEVEL: "silent", NODE_ENV: "development" },
    encoding: "utf8",
  });
  const { mail } = JSON.parse(out) as { mail: { subject: string; links: string[] }[] };
  const link = mail.flatMap((m) => m.links).find((l) => l.includes(part));
  if (!link) throw new Error(`no ${part} link in ${out}`);
  return link;
}

async function signUp(page: Page, email: string): Promise<void> {
  await page.goto("/signup");
  await hydrated(page.getByLabel("Company name"));
  await page.getByLabel("Company name").fill(`Secure Co ${stamp}`);
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password (at least 10 characters)").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${email} · owner`);
}

/** Email and password; returns once the form either signed in or asks for the code. */
async function enterPassword(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await hydrated(page.getByLabel("Email"));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByLabel("Authentication code").fill(code);
  await page.getByRole("button", { name: "Verify and sign in" }).click();
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
}

async function newPage(browser: Browser): Promise<Page> {
  return (await browser.newContext()).newPage();
}

test("two-factor: set up from the shown secret, sign in with a code, then with a recovery code", async ({
  page,
  browser,
}) => {
  const email = `twofa-${stamp}@example.test`;
  await signUp(page, email);
  // Another browser signed in with the password alone: turning two-factor on signs it out.
  const other = await newPage(browser);
  await enterPassword(other, email, PASSWORD);
  await expect(other.getByTestId("signed-in-as")).toHaveText(`${email} · owner`);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account security" }).click();
  await expect(page.getByRole("heading", { name: "Account security", level: 1 })).toBeVisible();
  await expect(page.getByTestId("two-factor-state")).toHaveText("Two-factor authentication is off.");
  await expectAccessible(page);
  await hydrated(page.getByRole("button", { name: "Set up two-factor authentication" }));
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  const setupAt = Date.now();
  await page.getByLabel("The 6-digit code your app shows").fill(codeFor(secret, setupAt));
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  const codes = page.getByTestId("recovery-codes").getByRole("listitem");
  await expect(codes).toHaveCount(10);
  await expect(page.getByTestId("other-sessions-ended")).toBeVisible();
  const recovery = (await codes.allTextContents()).map((c) => c.trim());
  await expectAccessible(page);
  await saveScreenshot(page, "security-recovery-codes");
  await page.getByRole("button", { name: "I stored them" }).click();
  await expect(page.getByTestId("two-factor-state")).toContainText("10 of 10 recovery codes left");
  await other.goto("/account");
  await expect(other).toHaveURL(/\/login/);

  // The password alone no longer signs in: the form asks for the code.
  await logOut(page);
  await enterPassword(page, email, PASSWORD);
  await expect(page.getByLabel("Authentication code")).toBeVisible();
  await expectAccessible(page);
  // The code the setup used is spent; the app's next one (accepted within the window) is not.
  await enterCode(page, codeFor(secret, setupAt));
  await expect(page.getByText("That code is not valid")).toBeVisible();
  await enterCode(page, codeFor(secret, setupAt + 30_000));
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${email} · owner`);

  // A recovery code signs in once.
  await logOut(page);
  await enterPassword(page, email, PASSWORD);
  await enterCode(page, recovery[0] ?? "");
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${email} · owner`);
  await page.goto("/account");
  await expect(page.getByTestId("two-factor-state")).toContainText("9 of 10 recovery codes left");
  await logOut(page);
  await enterPassword(page, email, PASSWORD);
  await enterCode(page, recovery[0] ?? "");
  await expect(page.getByText("That code is not valid")).toBeVisible();
  await saveScreenshot(page, "security-code-refused");
});

test("forgot password: the emailed link sets a new one and signs out the other browser", async ({ browser }) => {
  const email = `reset-${stamp}@example.test`;
  const other = await newPage(browser);
  await signUp(other, email);
  await other.goto("/account");
  await expect(other.getByTestId("session-row")).toHaveCount(1);

  const page = await newPage(browser);
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page.getByRole("heading", { name: "Forgot your password?" })).toBeVisible();
  await expectAccessible(page);
  // An email without an account gets the very same answer.
  await hydrated(page.getByLabel("Email"));
  await page.getByLabel("Email").fill(`nobody-${stamp}@example.test`);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  const answer = (await page.getByTestId("reset-requested").textContent()) ?? "";
  expect(answer).toContain("If an account uses this email");
  await page.goto("/forgot-password");
  await hydrated(page.getByLabel("Email"));
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByTestId("reset-requested")).toHaveText(answer);

  const link = linkInMail(email, "/reset-password/");
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await expectAccessible(page);
  await hydrated(page.getByLabel("New password (at least 10 characters)"));
  await page.getByLabel("New password (at least 10 characters)").fill("a-brand-new-password");
  await page.getByRole("button", { name: "Set new password" }).click();
  await expect(page.getByTestId("password-reset-done")).toBeVisible();
  await saveScreenshot(page, "security-reset-done");

  // The other browser's session ended: its next request lands on the sign-in page.
  await other.goto("/account");
  await expect(other).toHaveURL(/\/login/);
  // The link worked once.
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "This reset link cannot be used" })).toBeVisible();
  // The new password signs in; the old one does not.
  await enterPassword(page, email, PASSWORD);
  await expect(page.getByText("Wrong email or password")).toBeVisible();
  await enterPassword(page, email, "a-brand-new-password");
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${email} · owner`);
});
