import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, hydrated, login, saveScreenshot } from "./helpers";

// The template builder end to end (docs/templates.md "The builder", "Review"): a template
// built in the dashboard goes to the simulator for review; its verdict comes back through the
// signed template status callback, and the page follows it. An approved template with two
// variables is sent from the Messages page with both values, after seeing the preview.

const stamp = () => String(Date.now()).slice(-8);

async function openBuilder(page: Page) {
  await page.goto("/templates");
  await page.getByRole("link", { name: "New template" }).click();
  await expect(page).toHaveURL(/\/templates\/new/);
  await hydrated(page.getByLabel("Name"));
}

test("a template built with two variables is approved and sent from the Messages page with both values", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await login(page);
  await openBuilder(page);
  const name = `parcel_${stamp()}`;
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("Category").selectOption({ label: "Utility" });
  await page.getByLabel("Header type").selectOption({ label: "Text" });
  await page.getByLabel("Header text").fill("Your parcel");
  await page.getByLabel("Body text").fill("Hello {{1}}, parcel {{2}} leaves today.");
  await page.getByLabel("Sample for {{1}}").fill("Ana");
  await page.getByLabel("Sample for {{2}}").fill("P-100");
  await page.getByLabel("Footer (optional)").fill("Switchboard demo shop");
  await page.getByRole("button", { name: "Add a button" }).click();
  await page.getByLabel("Button 1 label").fill("Thanks");
  const preview = page.getByRole("figure", { name: "Message preview" });
  await expect(preview).toContainText("Your parcel");
  await expect(preview).toContainText("Hello Ana, parcel P-100 leaves today.");
  await expect(preview).toContainText("Switchboard demo shop");
  await expect(preview.getByRole("listitem")).toHaveText(["Thanks"]);
  await expectAccessible(page);
  await saveScreenshot(page, "template-builder");
  await page.getByRole("button", { name: "Create and submit for review" }).click();

  // The detail page shows it in review, then the simulator's verdict.
  await expect(page).toHaveURL(/\/templates\/[^/]+$/);
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("template-status")).toHaveText("approved", { timeout: 30_000 });
  await expect(page.getByTestId("template-quality")).toHaveText("not rated yet");
  await expect(page.getByRole("figure", { name: "Message preview" }).first()).toContainText(
    "Hello {{1}}, parcel {{2}} leaves today.",
  );
  await expectAccessible(page);

  // Sent from the Messages page: one field per variable, the preview, then the send.
  await page.goto("/messages");
  const recipient = `+1415554${String(Date.now()).slice(-4)}`;
  await hydrated(page.getByLabel("Recipient (with + and country code)"));
  await page.getByLabel("Recipient (with + and country code)").fill(recipient);
  await page.getByLabel("Template", { exact: true }).selectOption({ label: `${name} (en, utility)` });
  const composerPreview = page.getByRole("figure", { name: "Message preview" });
  await expect(composerPreview).toContainText("Hello {{1}}, parcel {{2}} leaves today.");
  await page.getByLabel("Body {{1}}").fill("Sam");
  await page.getByLabel("Body {{2}}").fill("P-7");
  await expect(composerPreview).toContainText("Hello Sam, parcel P-7 leaves today.");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Accepted:" })).toBeVisible();
  const row = page.getByTestId("message-row").filter({ hasText: recipient });
  await expect(row).toContainText(name);
  await expect(row.getByText("read", { exact: true })).toBeVisible({ timeout: 30_000 });
  await saveScreenshot(page, "template-sent");
});

test("a template the review rejects shows the provider's reason on its page and in the list", async ({ page }) => {
  test.setTimeout(60_000);
  await login(page);
  await openBuilder(page);
  const name = `code_end_${stamp()}`;
  await page.getByLabel("Name").fill(name);
  // The provider refuses a body that ends with a variable.
  await page.getByLabel("Body text").fill("Your code is {{1}}");
  await page.getByLabel("Sample for {{1}}").fill("123456");
  await page.getByRole("button", { name: "Create and submit for review" }).click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  const reason =
    "INVALID_FORMAT: The body may not start or end with a variable: put text before the first and after the last.";
  await expect(page.getByTestId("template-status")).toContainText("rejected", { timeout: 30_000 });
  await expect(page.getByTestId("rejection-reason")).toHaveText(`Reason: ${reason}`);
  await expectAccessible(page);
  await saveScreenshot(page, "template-rejected");

  await page.getByRole("link", { name: "All templates" }).click();
  const row = page.getByTestId("template-row").filter({ hasText: name });
  await expect(row.getByTestId("rejection-reason")).toHaveText(`Reason: ${reason}`);
  await expect(row).toContainText("Your code is {{1}}");
  // Source says where each came from (docs/templates.md "The list"): this one was made here,
  // the provider's sample hello_world was read by a sync.
  await expect(row).toContainText("created here");
  await expect(page.getByTestId("template-row").filter({ hasText: "hello_world" })).toContainText(
    "synced from the provider",
  );
});

test("the builder says what a draft lacks before submitting it", async ({ page }) => {
  await login(page);
  await openBuilder(page);
  await page.getByLabel("Name").fill(`incomplete_${stamp()}`);
  await page.getByLabel("Body text").fill("Hi {{1}}, your table is ready.");
  await page.getByRole("button", { name: "Create and submit for review" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Body: give a sample value for {{1}}" }).first(),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/templates\/new/);
});
