import { expect, test } from "@playwright/test";
import { expectAccessible, login, saveScreenshot } from "./helpers";

// Pages other parts of the project add to the dashboard, and the API reference: each
// loads for the demo user and passes the same axe check.
for (const path of ["/messages", "/templates", "/analytics", "/docs/api"]) {
  test(`${path} loads and is accessible`, async ({ page }) => {
    await login(page);
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(page);
    await saveScreenshot(page, `page${path.replaceAll("/", "-")}`);
  });
}
