import { expect, test } from "@playwright/test";
import { expectAccessible, saveScreenshot } from "./helpers";

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
  await page.goto("/billing/ledger");
  await expect(page.getByTestId("ledger-balance")).toContainText("0.0000");
  await saveScreenshot(page, "signup-empty");
});
