// Per-address limits against the real `npm start` (the front server and `next start`): one
// client that spends its address's budget (failed sign-ins, wrong second-factor codes,
// reset requests) stops only itself, whatever addresses it claims in its headers, and a
// member signs in and resets from their own browser meanwhile (docs/security.md "Client
// addresses"). The attacker sends from 127.0.0.2-4 (any 127.0.0.0/8 address reaches the app's
// loopback port: each test has its own); the member's browser comes from localhost (127.0.0.1
// or ::1).
import { execFileSync } from "node:child_process";
import http from "node:http";
import { expect, type Page, test } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { hydrated } from "./helpers";

const port = Number(process.env.E2E_PORT ?? 3210);
/** One attacking address per test: each test spends its address's whole budget. */
const ATTACKERS = { signIn: "127.0.0.2", secondFactor: "127.0.0.3", reset: "127.0.0.4" };
const PASSWORD = "a-long-password-1";
/** What a client would claim to dodge a per-address limit (every copy must be ignored or replaced). */
const FORGED = {
  "X-Forwarded-For": "10.1.1.1",
  "X-Real-IP": "10.1.1.1",
  "X-Switchboard-Client-Address": "10.1.1.1 Zm9yZ2Vk",
};

type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string };

/** One raw HTTP request to the app from the local address `from`. */
function send(
  from: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: "127.0.0.1", port, method, path, localAddress: from, headers: { Host: `localhost:${port}`, ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d: string) => {
          text += d;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const cookiesOf = (reply: Reply) => (reply.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");

/** A sign-in through next-auth's credentials callback, as the login form posts it; its error, or "" on success. */
async function signInFrom(from: string, email: string, code = "", extra: Record<string, string> = {}): Promise<string> {
  const csrf = await send(from, "GET", "/api/auth/csrf", extra);
  const { csrfToken } = JSON.parse(csrf.text) as { csrfToken: string };
  const form = new URLSearchParams({ csrfToken, email, password: code === "wrong-password" ? "nope" : PASSWORD });
  if (code && code !== "wrong-password") form.set("code", code);
  form.set("json", "true");
  const reply = await send(
    from,
    "POST",
    "/api/auth/callback/credentials",
    { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookiesOf(csrf), ...extra },
    form.toString(),
  );
  const { url } = JSON.parse(reply.text) as { url: string };
  return new URL(url).searchParams.get("error") ?? "";
}

/** The operator CLI against the app's data folder (as `npm run -s cli --` would run it). */
function cli(...args: string[]): Record<string, string> {
  const out = execFileSync("node", ["scripts/run.mjs", "cli", ...args, "--json"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "", LOG_LEVEL: "silent", NODE_ENV: "development" },
    encoding: "utf8",
  });
  return JSON.parse(out) as Record<string, string>;
}

/** A new account's owner, made by the operator (no sign-up: the browser's sign-up budget is the suite's). */
function newOwner(label: string): string {
  const email = `${label}-${Date.now()}@example.test`;
  const { customerId } = cli("customer:create", "--name", `Address Co ${label}`, "--plan", "pro");
  cli("user:create", "--customer", customerId, "--email", email, "--password", PASSWORD);
  return email;
}

async function enterPassword(page: Page, email: string): Promise<void> {
  await page.goto("/login");
  await hydrated(page.getByLabel("Email"));
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const TOO_MANY_SIGN_INS = /^Too many sign-in attempts/;

test("40 failed sign-ins from one address do not stop the member signing in from theirs", async ({ page }) => {
  const email = newOwner("sign-in");
  const errors: string[] = [];
  for (let i = 0; i < 40; i++) errors.push(await signInFrom(ATTACKERS.signIn, email, "wrong-password"));
  expect(errors[0]).toMatch(/^Wrong email or password/);
  expect(errors.at(-1)).toMatch(TOO_MANY_SIGN_INS);
  // Claiming another address changes nothing: the right password from that address is refused too.
  expect(await signInFrom(ATTACKERS.signIn, email, "", FORGED)).toMatch(TOO_MANY_SIGN_INS);

  await enterPassword(page, email);
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${email} · owner`);
});

test("wrong second-factor codes from one address do not block the member's own code", async ({ page }) => {
  const email = newOwner("two-factor");
  await enterPassword(page, email);
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${email} · owner`);
  await page.goto("/account");
  await hydrated(page.getByRole("button", { name: "Set up two-factor authentication" }));
  await page.getByRole("button", { name: "Set up two-factor authentication" }).click();
  const secret = (await page.getByTestId("totp-secret").textContent())?.trim() ?? "";
  const codeAt = (at: number) =>
    new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
      timestamp: at,
    });
  const setupAt = Date.now();
  await page.getByLabel("The 6-digit code your app shows").fill(codeAt(setupAt));
  await page.getByRole("button", { name: "Turn on two-factor" }).click();
  await page.getByRole("button", { name: "I stored them" }).click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);

  const errors: string[] = [];
  for (let i = 0; i < 15; i++) errors.push(await signInFrom(ATTACKERS.secondFactor, email, "000000"));
  expect(errors[0]).toMatch(/^That code is not valid/);
  expect(errors.at(-1)).toMatch(TOO_MANY_SIGN_INS);
  expect(await signInFrom(ATTACKERS.secondFactor, email, codeAt(setupAt + 30_000), FORGED)).toMatch(TOO_MANY_SIGN_INS);

  await enterPassword(page, email);
  await page.getByLabel("Authentication code").fill(codeAt(setupAt + 30_000));
  await page.getByRole("button", { name: "Verify and sign in" }).click();
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${email} · owner`);
});

test("reset requests from one address do not stop the member's own reset", async ({ page }) => {
  const email = newOwner("reset");
  // The form's server action, as the browser sends it: then replayed from 127.0.0.2.
  await page.goto("/forgot-password");
  await hydrated(page.getByLabel("Email"));
  await page.getByLabel("Email").fill(`nobody-${Date.now()}@example.test`);
  const posted = page.waitForRequest((r) => r.method() === "POST" && r.headers()["next-action"] !== undefined);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  const action = await posted;
  await expect(page.getByTestId("reset-requested")).toBeVisible();
  const headers = Object.fromEntries(
    Object.entries(await action.allHeaders()).filter(
      ([name]) => !["cookie", "content-length", "accept-encoding"].includes(name),
    ),
  );
  const replay = (n: number, extra: Record<string, string> = {}) =>
    send(
      ATTACKERS.reset,
      "POST",
      new URL(action.url()).pathname,
      { ...headers, ...extra },
      JSON.stringify([{ email: `nobody-${Date.now()}-${n}@example.test` }]),
    );
  const answers: Reply[] = [];
  for (let n = 0; n < 25; n++) answers.push(await replay(n));
  expect(answers[0]?.text).toContain("If an account uses this email");
  expect(answers.at(-1)?.text).toContain("Too many reset requests");
  expect((await replay(99, FORGED)).text).toContain("Too many reset requests");

  await page.goto("/forgot-password");
  await hydrated(page.getByLabel("Email"));
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Email me a reset link" }).click();
  await expect(page.getByTestId("reset-requested")).toContainText("If an account uses this email");
  const { mail } = cli("mail:list", "--to", email) as unknown as { mail: { links: string[] }[] };
  expect(mail.flatMap((m) => m.links).some((l) => l.includes("/reset-password/"))).toBe(true);
});
