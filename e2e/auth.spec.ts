import { expect, test } from "@playwright/test";
import { DEMO_EMAIL, expectAccessible, login, saveScreenshot } from "./helpers";

test("the login page is accessible and a wrong password gets a clear message", async ({ page }) => {
  await page.goto("/login");
  await expectAccessible(page);
  await page.getByLabel("Email").fill(DEMO_EMAIL);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong email or password")).toBeVisible();
  await expect(page).toHaveURL(/\/login/);

  // Repeated failures for one address from one IP are refused for a while.
  const email = `nobody-${Date.now()}@example.com`;
  await page.getByLabel("Email").fill(email);
  for (let i = 0; i < 11; i++) {
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
  }
  await expect(page.getByText("Too many sign-in attempts")).toBeVisible();
  // The wait agrees with its number ("1 minute", never "1 minutes").
  await expect(page.getByText("Too many sign-in attempts")).toHaveText(
    /^Too many sign-in attempts\. Try again in (1 minute|([2-9]|\d{2,}) minutes)\.$/,
  );
  await saveScreenshot(page, "login-wrong-password");
});

test("the demo user logs in, then logging out sends every page to login", async ({ page, request }) => {
  await login(page);
  await expect(page.getByRole("heading", { level: 1, name: "Billing" })).toBeVisible();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login/);
  for (const path of [
    "/billing",
    "/contacts",
    "/webhooks",
    "/tokens",
    "/senders",
    "/billing/ledger",
    "/messages",
    "/templates",
    "/analytics",
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login/);
  }
  const api = await request.get("/api/dashboard/billing/export");
  expect(api.status()).toBe(401);
  await saveScreenshot(page, "logged-out");
});

test("the sign-up page is accessible", async ({ page }) => {
  await page.goto("/signup");
  await expectAccessible(page);
  await saveScreenshot(page, "signup-page");
});
