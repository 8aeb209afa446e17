import { expect, test } from "@playwright/test";
import { expectAccessible, login, saveScreenshot } from "./helpers";

test("create a contact book and upload a file with one bad row", async ({ page }) => {
  await login(page);
  await page.goto("/contacts");
  await expectAccessible(page);
  // A custom field the upload maps a column to.
  await page.getByLabel("Key (snake_case)").fill("tier");
  await page.getByLabel("Label", { exact: true }).fill("Customer tier");
  await page.getByRole("button", { name: "Add field" }).click();
  await expect(page.getByText("Customer tier · text")).toBeVisible();

  const name = `E2E book ${Date.now()}`;
  await page.getByLabel("Book name").fill(name);
  await page.getByLabel("Description").first().fill("Made by the end-to-end suite");
  await page.getByRole("button", { name: "Create book" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  const csv = [
    "phone,full name,email,tier",
    "+14155550101,Ada Lovelace,ada@example.com,gold",
    "not-a-number,Bad Row,bad@example.com,silver",
    "+14155550102,Alan Turing,alan@example.com,bronze",
  ].join("\n");
  await page.getByLabel("CSV or JSON file").setInputFiles({
    name: "contacts.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(csv),
  });
  await expect(page.getByRole("table", { name: "File preview" })).toBeVisible();
  await expect(page.getByLabel("Column “phone”")).toHaveValue("phoneNumber");
  await expect(page.getByLabel("Column “full name”")).toHaveValue("name");
  await expect(page.getByLabel("Column “tier”")).toHaveValue("custom:tier");
  await page.getByRole("button", { name: "Upload 3 rows" }).click();

  const report = page.getByTestId("upload-report");
  await expect(report).toContainText("created 2");
  await expect(report).toContainText("failed 1");
  await expect(page.getByTestId("row-error")).toHaveCount(1);
  await expect(page.getByTestId("row-error")).toContainText("INVALID_PHONE_NUMBER");
  await expect(page.getByTestId("row-error").locator("td").first()).toHaveText("2");

  await expect(page.getByTestId("contact-row")).toHaveCount(2);
  await expect(page.getByTestId("contact-row").filter({ hasText: "Ada Lovelace" })).toContainText("gold");
  await expect(page.getByTestId("contact-count")).toContainText("2 contacts");
  await expectAccessible(page);

  // Search within the book.
  await page.getByLabel("Search phone, name or email").fill("Turing");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("contact-row")).toHaveCount(1);
  await saveScreenshot(page, "contacts-upload");

  // The book shows in the list with its search.
  await page.goto(`/contacts?search=${encodeURIComponent(name)}`);
  await expect(page.getByTestId("book-row")).toHaveCount(1);
});
