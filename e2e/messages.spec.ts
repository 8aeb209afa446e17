import { expect, test } from "@playwright/test";
import { contactWrites, expectAccessible, hydrated, login, saveScreenshot } from "./helpers";

// The whole loop from the browser: the composer sends through the simulator, whose signed
// callbacks come back through /api/provider/webhook, and the live log follows them. A
// template's variables are filled in the composer (one field each) after seeing the preview.
test("a template sent from the composer reaches read in the message log", async ({ page }) => {
  await login(page);
  await page.goto("/messages");
  // An area code of its own: the demo's contacts hold +14155551000-+14155553059 (lib/domains/demo/seed-contacts.ts),
  // one with a message in the log matched this filter in a CI run, and other specs' contacts use +141555x.
  const recipient = `+1628555${String(Date.now()).slice(-4)}`;
  // A controlled input: filled before hydration, React would reset it.
  await hydrated(page.getByLabel("Recipient (with + and country code)"));
  await page.getByLabel("Recipient (with + and country code)").fill(recipient);
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_update (en, utility)" });
  // One field per variable, and the preview shows the placeholders until they are filled.
  const preview = page.getByRole("figure", { name: "Message preview" });
  await expect(preview).toContainText("Hi {{1}}, your order {{2}} is on its way.");
  // Without its values the send is refused, with the reason shown, and nothing is logged.
  await page.getByRole("button", { name: "Send" }).click();
  await expect(
    page.getByRole("status").filter({
      hasText: "Template order_update (en): body parameter 1 ({{1}}) has no text value",
    }),
  ).toBeVisible();
  await expect(page.getByTestId("message-row").filter({ hasText: recipient })).toHaveCount(0);
  await page.getByLabel("Body {{1}}").fill("Ana");
  await page.getByLabel("Body {{2}}").fill("A-1042");
  await expect(preview).toContainText("Hi Ana, your order A-1042 is on its way.");
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
  // A controlled input: filled before hydration, React would reset it.
  await hydrated(page.getByLabel("Recipient (with + and country code)"));
  await page.getByLabel("Recipient (with + and country code)").fill(recipient);
  await page.getByRole("textbox", { name: "Message", exact: true }).fill("Hello from the dashboard");
  await page.getByRole("button", { name: "Send" }).click();
  const row = page.getByTestId("message-row").filter({ hasText: recipient });
  await expect(row.getByText("read", { exact: true })).toBeVisible({ timeout: 30_000 });
  await saveScreenshot(page, "messages-session-read");
});
