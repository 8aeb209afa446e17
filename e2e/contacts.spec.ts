import { expect, test } from "@playwright/test";
import { expectAccessible, generateToken, login, saveScreenshot } from "./helpers";

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
  // The bad row is the file's third line: a spreadsheet's row 3 (the header is row 1).
  await expect(page.getByTestId("row-error").locator("td").first()).toHaveText("3");
  await expect(page.getByTestId("row-numbering")).toContainText("the header is row 1");

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

test("a JSON file in the API's shape keeps its custom fields: shown in the preview, mapped and stored", async ({
  page,
}) => {
  await login(page);
  await page.goto("/contacts");
  const key = `plan_${Date.now()}`;
  await page.getByLabel("Key (snake_case)").fill(key);
  await page.getByLabel("Label", { exact: true }).fill(`Plan ${key}`);
  await page.getByRole("button", { name: "Add field" }).click();
  await expect(page.getByText(`Plan ${key} · text`)).toBeVisible();

  const name = `E2E JSON book ${Date.now()}`;
  await page.getByLabel("Book name").fill(name);
  await page.getByRole("button", { name: "Create book" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // The body of POST /api/v3/contact-books/{uid}/contacts/bulk, saved as a file.
  const contacts = [
    { phoneNumber: "+14155550181", name: "Grace Hopper", customFields: { [key]: "gold" } },
    { phoneNumber: "+14155550182", name: "Edsger Dijkstra", customFields: { [key]: "silver", unknown_field: 1 } },
  ];
  await page.getByLabel("CSV or JSON file").setInputFiles({
    name: "contacts.json",
    mimeType: "application/json",
    buffer: Buffer.from(JSON.stringify(contacts)),
  });
  const preview = page.getByRole("table", { name: "File preview" });
  await expect(preview).toBeVisible();
  await expect(preview).not.toContainText("[object Object]");
  await expect(preview).toContainText("gold");
  await expect(page.getByLabel(`Column “customFields.${key}”`)).toHaveValue(`custom:${key}`);
  // A custom field the account does not have is named, not silently dropped.
  await expect(page.getByLabel("Column “customFields.unknown_field”")).toHaveValue("");
  await expect(page.getByText("No custom field “unknown_field” yet")).toBeVisible();
  await page.getByRole("button", { name: "Upload 2 rows" }).click();

  await expect(page.getByTestId("upload-report")).toContainText("created 2");
  const table = page.getByTestId("contact-row");
  await expect(table).toHaveCount(2);
  await expect(table.filter({ hasText: "Grace Hopper" })).toContainText("gold");
  await expect(table.filter({ hasText: "Edsger Dijkstra" })).toContainText("silver");
  await expectAccessible(page);
});

test("a number repeated in a later chunk of a 600-row file is refused naming its first row, as inside a chunk", async ({
  page,
}) => {
  await login(page);
  await page.goto("/contacts");
  const name = `E2E chunks ${Date.now()}`;
  await page.getByLabel("Book name").fill(name);
  await page.getByRole("button", { name: "Create book" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // 600 contacts (two chunks of the upload): contact 550 repeats contact 0, contact 20 repeats contact 5.
  const phone = (i: number) => `+44207300${String(i).padStart(4, "0")}`;
  const lines = ["phone,name"];
  for (let i = 0; i < 600; i++) lines.push(`${phone(i === 550 ? 0 : i === 20 ? 5 : i)},Person ${i}`);
  await page.getByLabel("CSV or JSON file").setInputFiles({
    name: "many.csv",
    mimeType: "text/csv",
    buffer: Buffer.from(lines.join("\n")),
  });
  await page.getByRole("button", { name: "Upload 600 rows" }).click();

  const report = page.getByTestId("upload-report");
  await expect(report).toContainText("created 598");
  await expect(report).toContainText("updated 0");
  await expect(report).toContainText("failed 2");
  const errors = page.getByTestId("row-error");
  await expect(errors).toHaveCount(2);
  await expect(errors.nth(0).locator("td").first()).toHaveText("22");
  await expect(errors.nth(0)).toContainText(`${phone(5)} already appears in row 7 of this upload`);
  await expect(errors.nth(1).locator("td").first()).toHaveText("552");
  await expect(errors.nth(1)).toContainText(`${phone(0)} already appears in row 2 of this upload`);
  await expect(errors.nth(1)).toContainText("DUPLICATE_PHONE_NUMBER");
});

test("a search across every book finds a name whatever its accents and case, and says which book", async ({
  page,
  request,
}) => {
  await login(page);
  const token = await generateToken(page, `contact search ${Date.now()}`);
  const stamp = Date.now().toString(36);
  const headers = { Authorization: `Bearer ${token}` };
  const books: Record<string, string> = {};
  for (const [name, contacts] of [
    [`Paris ${stamp}`, [{ phoneNumber: "+33612349001", name: `Chloé ${stamp}`, email: "chloe@example.fr" }]],
    [`Lyon ${stamp}`, [{ phoneNumber: "+33612349002", name: `CHLOE ${stamp}`, email: null }]],
  ] as const) {
    const created = await request.post("/api/v3/contact-books", { headers, data: { contactBook: { name } } });
    expect(created.status()).toBe(201);
    const uid = (await created.json()).data.uid as string;
    books[name] = uid;
    const up = await request.post(`/api/v3/contact-books/${uid}/contacts/bulk`, { headers, data: { contacts } });
    expect((await up.json()).data.created).toBe(1);
  }

  await page.goto("/contacts");
  for (const term of [`Chloe ${stamp}`, `chloé ${stamp}`]) {
    await page.getByLabel("Name, email or number").fill(term);
    await page.getByRole("button", { name: "Search contacts" }).click();
    await expect(page).toHaveURL(/[?&]q=/);
    const rows = page.getByTestId("found-contact-row");
    await expect(rows).toHaveCount(2);
    await expect(page.getByTestId("contact-search-count")).toContainText("2 contacts match");
    await expect(rows.filter({ hasText: `Chloé ${stamp}` })).toContainText(`Paris ${stamp}`);
    await expect(rows.filter({ hasText: `CHLOE ${stamp}` })).toContainText(`Lyon ${stamp}`);
  }
  await expectAccessible(page);
  await saveScreenshot(page, "contacts-search-all-books");

  // The book link opens the book with the same search, which finds it too.
  await page
    .getByTestId("found-contact-row")
    .getByRole("link", { name: `Paris ${stamp}` })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: `Paris ${stamp}` })).toBeVisible();
  await expect(page.getByLabel("Search phone, name or email")).toHaveValue(`chloé ${stamp}`);
  await expect(page.getByTestId("contact-row")).toHaveCount(1);
  await page.getByLabel("Search phone, name or email").fill(`CHLOE ${stamp}`);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page.getByTestId("contact-row")).toHaveCount(1);
  await expect(page.getByTestId("contact-row")).toContainText(`Chloé ${stamp}`);
});
