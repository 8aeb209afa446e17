import { expect, test } from "@playwright/test";
import { contactWrites, expectAccessible, login, saveScreenshot } from "./helpers";

// The whole loop from the browser: the composer sends through the simulator, whose signed
// callbacks come back through /api/provider/webhook, and the live log follows them.
test("a template sent from the composer reaches read in the message log", async ({ page }) => {
  await login(page);
  await page.goto("/messages");
  const recipient = `+1415555${String(Date.now()).slice(-4)}`;
  await page.getByLabel("Recipient (E.164)").fill(recipient);
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_update (en, utility)" });
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Accepted:" })).toBeVisible();

  const row = page.getByTestId("message-row").filter({ hasText: recipient });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("order_update");
  await expect(row.getByText("read", { exact: true })).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);
  await saveScreenshot(page, "messages-composer-read");
});

test("a session message from the composer is accepted and logged", async ({ page }) => {
  await login(page);
  await page.goto("/messages");
  const recipient = `+1415556${String(Date.now()).slice(-4)}`;
  // A session message needs an open customer service window: the contact writes first.
  await contactWrites(page, recipient, "Hi, any news on my order?");
  await page.getByRole("radio", { name: "Session message" }).check();
  await page.getByLabel("Recipient (E.164)").fill(recipient);
  await page.getByRole("textbox", { name: "Message", exact: true }).fill("Hello from the dashboard");
  await page.getByRole("button", { name: "Send" }).click();
  const row = page.getByTestId("message-row").filter({ hasText: recipient });
  await expect(row.getByText("read", { exact: true })).toBeVisible({ timeout: 30_000 });
  await saveScreenshot(page, "messages-session-read");
});
