// The segment form (docs/automation.md "Segments"): a person writes a segment (a book, a label,
// a last inbound within) and watches its live count change, creates it, sees the same count on
// the segments list, sends a new broadcast to it (its count there too), and changes its name;
// the form is accessible at 390 and 1280 px in both themes.
import { expect, type Page, test } from "@playwright/test";
import { accessibleAt, generateToken, hydrated, login } from "./helpers";

const suffix = String(Date.now() % 100_000);
const [UMA, VIC, WES] = ["+14155550991", "+14155550992", "+14155550993"];

async function api(page: Page, token: string, path: string, data: unknown) {
  const res = await page.request.post(`/api/v3${path}`, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()).data;
}

test("a person writes a segment with a live count, creates it, sends a broadcast to it and renames it", async ({
  page,
}) => {
  await login(page);
  const token = await generateToken(page, `segment form e2e ${suffix}`);
  const bookName = `Form book ${suffix}`;
  const book = await api(page, token, "/contact-books", { contactBook: { name: bookName } });
  const report = await api(page, token, `/contact-books/${book.contactBookUid ?? book.uid}/contacts/bulk`, {
    contacts: [
      { phoneNumber: UMA, name: "Uma" },
      { phoneNumber: VIC, name: "Vic" },
      { phoneNumber: WES, name: "Wes" },
    ],
  });
  expect(report.failed).toBe(0);
  const labelName = `form-${suffix}`;
  await api(page, token, "/labels", { label: { name: labelName } });
  for (const phone of [UMA, VIC]) {
    await api(page, token, `/contacts/${encodeURIComponent(phone)}/labels`, { add: [labelName] });
  }

  await page.goto("/broadcasts/segments");
  await page.getByRole("link", { name: "New segment" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New segment" })).toBeVisible();
  const name = page.locator("#segment-name");
  await hydrated(name);

  // The live count follows the rules as they are written.
  const count = page.getByTestId("segment-live-count");
  await page.getByRole("checkbox", { name: bookName }).check();
  await expect(count).toHaveText("3");
  await page.getByRole("checkbox", { name: labelName, exact: true }).check();
  await expect(count).toHaveText("2");
  await page.getByLabel("Wrote to us within").selectOption({ label: "the last 30 days" });
  await expect(count).toHaveText("0");
  await page.getByLabel("Wrote to us within").selectOption("");
  await expect(count).toHaveText("2");

  // Without a name the schema refuses it under the field; nothing is saved.
  await page.getByRole("button", { name: "Create segment" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(page).toHaveURL(/\/broadcasts\/segments\/new$/);
  const segmentName = `Labelled in a book ${suffix}`;
  await name.fill(segmentName);
  await accessibleAt(page, [
    [1280, "light"],
    [1280, "dark"],
    [390, "dark"],
    [390, "light"],
  ]);

  await page.getByRole("button", { name: "Create segment" }).click();
  await expect(page).toHaveURL(/\/broadcasts\/segments$/);
  const row = page.getByTestId("segment-row").filter({ hasText: segmentName });
  await expect(row).toContainText(`1 contact book · labels ${labelName}`);
  await expect(row.getByTestId("segment-row-count")).toHaveText("2");

  // A new broadcast to it: the segment picked, its count the form's.
  await row.getByRole("link", { name: "New broadcast to it" }).click();
  await expect(page).toHaveURL(/\/broadcasts\/new\?segment=seg_/);
  await hydrated(page.locator("#bc-name"));
  await expect(page.getByLabel("Saved segment").locator("option:checked")).toHaveText(segmentName);
  await page.locator("#bc-name").fill(`To the form's segment ${suffix}`);
  await page.getByLabel("Template (approved)").selectOption("order_update|en");
  await page.getByLabel("Body {{1}} from").selectOption("name");
  await page.getByLabel("Body {{2}} from").selectOption("name");
  await expect(page.getByTestId("audience-count").getByTestId("segment-count")).toHaveText("2");
  await expect(page.getByTestId("audience-count").getByTestId("recipient-count")).toHaveText("2");

  // Changed on its page: the form comes filled in; saving replaces it.
  await page.goto("/broadcasts/segments");
  await page.getByRole("link", { name: `Edit ${segmentName}` }).click();
  await expect(page.getByRole("heading", { level: 1, name: segmentName })).toBeVisible();
  await hydrated(page.locator("#segment-name"));
  await expect(page.getByRole("checkbox", { name: labelName, exact: true })).toBeChecked();
  await expect(page.getByTestId("segment-live-count")).toHaveText("2");
  await page.getByRole("checkbox", { name: labelName, exact: true }).uncheck();
  await expect(page.getByTestId("segment-live-count")).toHaveText("3");
  await page.locator("#segment-name").fill(`${segmentName} (all)`);
  await page.getByRole("button", { name: "Save segment" }).click();
  await expect(page).toHaveURL(/\/broadcasts\/segments$/);
  const renamed = page.getByTestId("segment-row").filter({ hasText: `${segmentName} (all)` });
  await expect(renamed.getByTestId("segment-row-count")).toHaveText("3");
});
