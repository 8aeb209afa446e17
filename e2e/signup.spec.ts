import { execFileSync } from "node:child_process";
import { expect, test } from "@playwright/test";
import { DEMO_EMAIL, expectAccessible, hydrated, saveScreenshot } from "./helpers";

test("a new account sees none of the demo data", async ({ page }) => {
  const email = `new-${Date.now()}@example.com`;
  await page.goto("/signup");
  await page.getByLabel("Company name").fill("Fresh Co");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password (at least 10 characters)").fill("a-long-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  // The dashboard home: the first-run checklist, nothing done yet.
  await expect(page.getByTestId("onboarding-progress")).toHaveText("0 of 4");
  await expectAccessible(page);
  await page.goto("/billing");
  await expect(page.getByTestId("total-messages")).toHaveText("0");
  await expect(page.getByText("No billing records match")).toBeVisible();
  await expectAccessible(page);

  await page.goto("/contacts");
  await expect(page.getByTestId("book-row")).toHaveCount(0);
  await page.goto("/tokens");
  await expect(page.getByTestId("token-row")).toHaveCount(0);
  await page.goto("/senders");
  await expect(page.getByText("No sender numbers yet")).toBeVisible();
  await expectAccessible(page);
  await page.goto("/webhooks");
  await expect(page.getByText("No sender numbers yet")).toBeVisible();
  // The only ledger entry: the welcome credit of simulator mode (docs/api/billing.md "Welcome credit").
  await page.goto("/billing/ledger");
  await expect(page.getByTestId("ledger-balance")).toContainText("10.0000");
  await expect(page.getByText("Welcome credit (simulator)")).toBeVisible();
  await expect(page.getByTestId("low-balance-banner")).toHaveCount(0);
  await saveScreenshot(page, "signup-empty");
});

test("below the account's low-balance threshold every page shows a banner, until the threshold is lowered", async ({
  page,
}) => {
  await page.goto("/signup");
  await page.getByLabel("Company name").fill("Thrifty Co");
  await page.getByLabel("Work email").fill(`low-${Date.now()}@example.com`);
  await page.getByLabel("Password (at least 10 characters)").fill("a-long-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("onboarding-progress")).toHaveText("0 of 4");
  await page.goto("/billing/ledger");
  const threshold = page.getByLabel(/Alert below/);
  await expect(threshold).toHaveValue("5");
  // The welcome credit of 10 is below a threshold of 20: the banner shows, on every page.
  await threshold.fill("20");
  await page.getByRole("button", { name: "Save" }).click();
  const banner = page.getByTestId("low-balance-banner");
  await expect(banner).toContainText("Low balance: USD 10.00, below the alert threshold of USD 20.00");
  await expectAccessible(page);
  await page.goto("/contacts");
  await expect(banner).toBeVisible();
  await saveScreenshot(page, "low-balance-banner");
  // A bad amount is refused under the field; an empty one turns the alert off.
  await page.goto("/billing/ledger");
  await threshold.fill("lots");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(
    page.getByRole("form", { name: "Low-balance alert" }).getByText(/^Enter an amount like 5/),
  ).toBeVisible();
  await threshold.fill("");
  await page.getByRole("button", { name: "Save" }).click();
  await expect(banner).toHaveCount(0);
  await page.reload();
  await expect(threshold).toHaveValue("");
});

test("a short password is refused once, under its field", async ({ page }) => {
  await page.goto("/signup");
  await page.getByLabel("Company name").fill("Brief Co");
  await page.getByLabel("Work email").fill(`short-${Date.now()}@example.com`);
  const password = page.getByLabel("Password (at least 10 characters)");
  await hydrated(password);
  await password.fill("short");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.locator("#signup-password-error")).toHaveText("Use at least 10 characters");
  await expect(password).toHaveAttribute("aria-invalid", "true");
  // Said once: under the field, not again in the form's alert.
  await expect(page.getByText("Use at least 10 characters")).toHaveCount(1);
  await expect(page.getByRole("alert").filter({ hasText: "10 characters" })).toHaveCount(0);
  await expectAccessible(page);
  await expect(page).toHaveURL(/\/signup/);
});

test("a taken email: the form says only that an email went out, and the email says to sign in or reset", async ({
  page,
}) => {
  await page.goto("/signup");
  await hydrated(page.getByLabel("Company name"));
  await page.getByLabel("Company name").fill("Second Try Co");
  await page.getByLabel("Work email").fill(DEMO_EMAIL);
  await page.getByLabel("Password (at least 10 characters)").fill("a-guessed-password");
  await page.getByRole("button", { name: "Create account" }).click();
  const answer = page.getByTestId("signup-email-sent");
  await expect(answer).toHaveText(/^We sent an email to this address/);
  // (The page's own "Already have an account? Sign in" link is there for everyone.)
  await expect(page.getByText(/already has|already exists|taken/i)).toHaveCount(0);
  await expect(page).toHaveURL(/\/signup/);
  await expectAccessible(page);

  // The outbox as `npm run -s cli -- mail:list` shows it (the e2e app runs without SMTP_URL).
  const out = execFileSync("node", ["scripts/run.mjs", "cli", "mail:list", "--to", DEMO_EMAIL, "--json"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "", LOG_LEVEL: "silent", NODE_ENV: "development" },
    encoding: "utf8",
  });
  const { mail } = JSON.parse(out) as { mail: { subject: string; links: string[] }[] };
  const notice = mail.find((m) => m.subject === "You already have a Switchboard account");
  expect(notice?.links.some((l) => l.endsWith("/login"))).toBe(true);
  expect(notice?.links.some((l) => l.endsWith("/forgot-password"))).toBe(true);
});
