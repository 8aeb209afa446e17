import { expect, test } from "@playwright/test";
import { expectAccessible, saveScreenshot } from "./helpers";

// A new self-serve account, guided by the checklist on the dashboard home: adds a sender
// (simulator mode: a simulated phone number id at once) and creates a token, the
// checklist counting each step. (The first-message step is not covered yet: a new account
// has no approved template to send from the composer.)
test("a new account is guided by the checklist to a sender and a token", async ({ page }) => {
  const stamp = String(Date.now());
  await page.goto("/signup");
  await page.getByLabel("Company name").fill("Onboarding Co");
  await page.getByLabel("Work email").fill(`onboard-${stamp}@example.com`);
  await page.getByLabel("Password (at least 10 characters)").fill("a-long-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("onboarding-progress")).toHaveText("0 of 4");

  await page.getByTestId("step-sender").getByRole("link", { name: "Add a sender" }).click();
  await expect(page).toHaveURL(/\/senders/);
  const phone = `+1415557${stamp.slice(-4)}`;
  await page.getByLabel("Phone number (E.164)").fill(phone);
  await page.getByRole("button", { name: "Add sender" }).click();
  const row = page.getByRole("row").filter({ hasText: phone });
  await expect(row).toContainText("default");
  await expect(row).toContainText("Complete");
  await expectAccessible(page);

  await page.goto("/");
  await expect(page.getByTestId("onboarding-progress")).toHaveText("1 of 4");
  await page.getByTestId("step-token").getByRole("link", { name: "Create an API token" }).click();
  await page.getByLabel("Name").fill("first token");
  await page.getByRole("button", { name: "Generate token" }).click();
  const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^swb_live_/);

  await page.goto("/");
  await expect(page.getByTestId("onboarding-progress")).toHaveText("2 of 4");
  await expect(page.getByTestId("step-message").getByRole("link", { name: "Send a first message" })).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, "onboarding-checklist");
});
