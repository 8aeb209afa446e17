// The new-broadcast page (docs/broadcasts.md "How to send one"): two contact books (one number
// in both, one blacklisted, one without the mapped field), a template with two variables mapped
// from contact fields, the live count of recipients and skipped numbers by reason as the mapping
// and a filter change, the rendered samples, the estimate against the balance, then the start
// lands on the broadcast's page and the broadcast sends to the end (checked through the API).
import { expect, type Page, test } from "@playwright/test";
import { DEMO_SENDER, expectAccessible, generateToken, hydrated, login, saveScreenshot } from "./helpers";

const suffix = String(Date.now() % 100_000);
const FIELD = `order_ref_${suffix}`;
const ADA = "+14155550971";
const BOB = "+14155550972";
const CY = "+14155550973";
const DEE = "+14155550974";
const EVE = "+14155550975";

async function api(page: Page, token: string, path: string, data: unknown) {
  const res = await page.request.post(`/api/v3${path}`, { headers: { Authorization: `Bearer ${token}` }, data });
  expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
  return (await res.json()).data;
}

async function bookWith(page: Page, token: string, name: string, contacts: unknown[]) {
  const book = await api(page, token, "/contact-books", { contactBook: { name } });
  const report = await api(page, token, `/contact-books/${book.contactBookUid ?? book.uid}/contacts/bulk`, {
    contacts,
  });
  expect(report.failed).toBe(0);
}

test("a broadcast from two books with two mapped variables: live counts, samples, estimate, start", async ({
  page,
}) => {
  await login(page);
  const token = await generateToken(page, `broadcast e2e ${suffix}`);
  await api(page, token, "/contact-fields", { field: { key: FIELD, label: "Order reference", type: "text" } });
  const order = (ref: string) => ({ customFields: { [FIELD]: ref } });
  await bookWith(page, token, `Orders A ${suffix}`, [
    { phoneNumber: ADA, name: "Ada", ...order("A-100") },
    { phoneNumber: BOB, name: "Bob", ...order("B-200") },
    { phoneNumber: CY, name: "Cy" },
    { phoneNumber: DEE, name: "Dee", ...order("D-400") },
  ]);
  await bookWith(page, token, `Orders B ${suffix}`, [
    { phoneNumber: ADA, name: "Ada again", ...order("A-999") },
    { phoneNumber: EVE, name: "Eve", ...order("E-500") },
  ]);
  await api(page, token, "/blacklist", { senderId: DEMO_SENDER.phoneNumber, phoneNumber: DEE });

  await page.goto("/broadcasts/new");
  const name = page.locator("#bc-name");
  await hydrated(name);
  await expect(page.getByRole("heading", { level: 1, name: "New broadcast" })).toBeVisible();

  // Without a name, the start is refused under the field, said with its label.
  await page.getByRole("button", { name: "Start broadcast" }).click();
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("Name is required");
  await expect(page).toHaveURL(/\/broadcasts\/new$/);
  await name.fill(`Order update ${suffix}`);
  await expect(name).not.toHaveAttribute("aria-invalid", "true");

  // The sender and the approved template, with its text.
  await expect(page.getByLabel("Send from")).toHaveValue(DEMO_SENDER.phoneNumber);
  await page.getByLabel("Template (approved)").selectOption("order_update|en");
  const message = page.getByRole("region", { name: "1. Sender and template" });
  await expect(message.getByTestId("template-preview")).toContainText("Hi {{1}}, your order {{2}} is on its way.");

  // No variable is mapped for the member (a guess would send the wrong text): the start is
  // refused naming each one (docs/broadcasts.md "Variables").
  await expect(page.getByLabel("Body {{1}} from")).toHaveValue("");
  await expect(page.getByLabel("Body {{2}} from")).toHaveValue("");
  await page.getByRole("button", { name: "Start broadcast" }).click();
  await expect(page.getByLabel("Body {{1}} from")).toHaveAccessibleDescription(
    "Body {{1}}: choose where its value comes from",
  );
  await expect(page.getByLabel("Body {{2}} from")).toHaveAccessibleDescription(
    "Body {{2}}: choose where its value comes from",
  );
  await expect(page).toHaveURL(/\/broadcasts\/new$/);
  await page.getByLabel("Body {{1}} from").selectOption("name");
  await expect(page.getByLabel("Body {{1}} from")).not.toHaveAttribute("aria-invalid", "true");

  // The audience: both books. {{1}} from the contact's name, {{2}} not mapped yet: nobody misses one.
  await page.getByRole("checkbox", { name: new RegExp(`Orders A ${suffix}`) }).check();
  await page.getByRole("checkbox", { name: new RegExp(`Orders B ${suffix}`) }).check();
  const count = page.getByTestId("audience-count");
  await expect(count.getByTestId("recipient-count")).toHaveText("4");
  await expect(count.getByTestId("skipped-blacklisted")).toHaveText("1");
  await expect(count.getByTestId("skipped-duplicates")).toHaveText("1");
  await expect(count.getByTestId("skipped-missing_variable")).toHaveText("0");
  await expect(count.getByTestId("skipped-invalid_number")).toHaveText("0");

  // {{2}} from the order reference: Cy has none.
  await page.getByLabel("Body {{2}} from").selectOption("field");
  await page.getByLabel("Body {{2}} custom field").selectOption(FIELD);
  await expect(count.getByTestId("skipped-missing_variable")).toHaveText("1");
  await expect(count.getByTestId("recipient-count")).toHaveText("3");

  // A filter: only contacts with an order reference (Cy leaves the audience).
  await page.getByRole("button", { name: "Add a filter" }).click();
  const filter = page.getByRole("listitem", { name: "Filter 1" });
  await filter.getByLabel("Field", { exact: true }).selectOption(FIELD);
  await filter.getByLabel("Condition", { exact: true }).selectOption("exists");
  await expect(count.getByTestId("skipped-missing_variable")).toHaveText("0");
  await expect(count.getByTestId("recipient-count")).toHaveText("3");
  await expect(count.getByTestId("skipped-blacklisted")).toHaveText("1");

  // The message for the first recipients, each with their own values (book A's Ada wins).
  const samples = page.getByTestId("sample");
  await expect(samples).toHaveCount(3);
  await expect(samples.nth(0)).toContainText(`To ${ADA}`);
  await expect(samples.nth(0).getByTestId("template-preview")).toContainText("Hi Ada, your order A-100 is on its way.");
  await expect(samples.nth(1).getByTestId("template-preview")).toContainText("Hi Bob, your order B-200 is on its way.");
  await expect(samples.nth(2).getByTestId("template-preview")).toContainText("Hi Eve, your order E-500 is on its way.");

  // The review: recipients, the estimate against the balance, the duration.
  const review = page.getByTestId("review");
  await expect(review.getByTestId("review-recipients")).toHaveText("3");
  // Money as everywhere (docs/dashboard.md "Money"): the code, then the currency's minor units.
  await expect(review.getByTestId("review-cost")).toHaveText(/^USD \d{1,3}(,\d{3})*\.\d{2}$/);
  await expect(review.getByTestId("review-balance")).toHaveText(/^-?USD \d{1,3}(,\d{3})*\.\d{2}$/);
  await expect(review.getByTestId("review-duration")).toHaveText("1 s");
  await expect(page.getByTestId("review-starts")).toHaveText("Now");
  await expect(page.getByTestId("insufficient-balance")).toHaveCount(0);

  // Filled in, in light and dark mode: accessible.
  await expectAccessible(page);
  await page.getByRole("button", { name: "Dark mode" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expectAccessible(page);
  await saveScreenshot(page, "broadcast-new-dark");
  await page.getByRole("button", { name: "Light mode" }).click();

  await page.getByRole("button", { name: "Start broadcast" }).click();
  await expect(page).toHaveURL(/\/broadcasts\/bc_[^/?]+$/);
  const uid = new URL(page.url()).pathname.split("/").pop() ?? "";

  // Its page follows it to the end without a reload (e2e/broadcasts.spec.ts tests that page
  // in depth); the API agrees.
  await page.evaluate(() => {
    (window as unknown as { __sameDocument: string }).__sameDocument = "kept";
  });
  await expect(page.getByTestId("broadcast-status")).toHaveText("COMPLETED", { timeout: 60_000 });
  await expect(page.getByTestId("count-total")).toHaveText("4");
  await expect(page.getByTestId("count-skipped")).toHaveText("1");
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: string }).__sameDocument)).toBe("kept");
  const read = async () => {
    const res = await page.request.get(`/api/v3/broadcasts/${uid}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(res.status()).toBe(200);
    return (await res.json()).data as { status: string; name: string; counts: Record<string, number> };
  };
  const started = await read();
  expect(started.name).toBe(`Order update ${suffix}`);
  expect(["SENDING", "COMPLETED"]).toContain(started.status);
  await expect.poll(async () => (await read()).status, { timeout: 60_000 }).toBe("COMPLETED");
  const done = await read();
  // Ada, Bob, Dee (skipped: blacklisted) and Eve: one row per unique number of the filtered books.
  expect(done.counts).toMatchObject({ total: 4, skipped: 1, queued: 0, sending: 0 });
});

test("a scheduled start is shown on the zone's clock, and a past time is refused under the date", async ({ page }) => {
  await login(page);
  await page.goto("/broadcasts/new");
  await hydrated(page.locator("#bc-name"));
  await page.getByLabel("At a date and time").check();
  await page.getByLabel("Time zone").selectOption("Europe/Paris");
  await page.getByLabel("Date", { exact: true }).fill("2020-01-01");
  await page.getByLabel("Time", { exact: true }).fill("09:00");
  // 09:00 in Paris in winter is 08:00 UTC (the stored scheduledAt).
  await expect(page.getByTestId("review-starts")).toHaveText("2020-01-01 09:00 Europe/Paris (2020-01-01 08:00 UTC)");
  await page.getByRole("button", { name: "Schedule broadcast" }).click();
  await expect(page.getByLabel("Date", { exact: true })).toHaveAccessibleDescription(
    "Start time must be in the future",
  );
  await expect(page).toHaveURL(/\/broadcasts\/new$/);
  await expectAccessible(page);
});

test("at 390 px in dark mode the filled-in form does not scroll sideways and is accessible", async ({ browser }) => {
  // A context of its own for the phone-sized viewport (and theme) from its first page on.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: "dark" });
  const page = await context.newPage();
  await login(page);
  await page.goto("/broadcasts/new");
  await hydrated(page.locator("#bc-name"));
  // The browser prefers dark: the page starts dark.
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.getByRole("checkbox", { name: /VIP customers/ }).check();
  await page.getByRole("button", { name: "Add a filter" }).click();
  await page
    .getByRole("listitem", { name: "Filter 1" })
    .getByLabel("Condition", { exact: true })
    .selectOption("exists");
  await page.getByLabel("At a date and time").check();
  await expect(page.getByTestId("sample").first()).toBeVisible();
  await expect(page.getByTestId("review-recipients")).toBeVisible();
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth, "page scrolls sideways").toBeLessThanOrEqual(clientWidth);
  await expectAccessible(page);
  await saveScreenshot(page, "broadcast-new-390-dark");
  await context.close();
});

test("a saved segment as the audience: its live count is the API's, accessible at 390 and 1280 px in both themes, and the start sends to it", async ({
  page,
}) => {
  await login(page);
  const token = await generateToken(page, `segment e2e ${suffix}`);
  const labelName = `seg-${suffix}`;
  const [one, two, three] = ["+14155550981", "+14155550982", "+14155550983"];
  await bookWith(page, token, `Segment book ${suffix}`, [
    { phoneNumber: one, name: "Uma" },
    { phoneNumber: two, name: "Vic" },
    { phoneNumber: three, name: "Wes" },
  ]);
  await api(page, token, "/labels", { label: { name: labelName } });
  for (const phone of [one, two]) {
    await api(page, token, `/contacts/${encodeURIComponent(phone ?? "")}/labels`, { add: [labelName] });
  }
  const segmentName = `Labelled ${suffix}`;
  const segment = await api(page, token, "/segments", {
    segment: { name: segmentName, rules: { labels: [labelName] } },
  });
  const counted = await page.request.get(`/api/v3/segments/${segment.segmentUid}/count`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const { count } = (await counted.json()).data as { count: number };
  expect(count).toBe(2);

  // The segments list: its rules in words and the same live count; accessible in both themes.
  await page.goto("/broadcasts");
  await page.getByRole("link", { name: "Segments", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Segments" })).toBeVisible();
  const row = page.getByTestId("segment-row").filter({ hasText: segmentName });
  await expect(row).toContainText(`every number of the account · labels ${labelName}`);
  await expect(row.getByTestId("segment-row-count")).toHaveText(String(count));
  await expectAccessible(page);
  await page.getByRole("button", { name: "Dark mode" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Light mode" }).click();

  // "New broadcast to it": the new-broadcast page with the segment picked.
  await row.getByRole("link", { name: "New broadcast to it" }).click();
  await expect(page).toHaveURL(/\/broadcasts\/new\?segment=seg_/);
  await hydrated(page.locator("#bc-name"));
  await expect(page.getByLabel("Saved segment")).toHaveValue(segment.segmentUid);
  await page.getByLabel("Saved segment").selectOption("");
  await expect(page.getByRole("button", { name: "Add a filter" })).toBeVisible();
  await page.locator("#bc-name").fill(`To a segment ${suffix}`);
  await page.getByLabel("Template (approved)").selectOption("order_update|en");
  await page.getByLabel("Body {{1}} from").selectOption("name");
  await page.getByLabel("Body {{2}} from").selectOption("name");
  await page.getByLabel("Saved segment").selectOption({ label: segmentName });
  // The books and filters give way to the segment; its live count is the API's count.
  await expect(page.getByRole("button", { name: "Add a filter" })).toHaveCount(0);
  const audience = page.getByTestId("audience-count");
  await expect(audience.getByTestId("segment-count")).toHaveText(String(count));
  await expect(audience.getByTestId("recipient-count")).toHaveText("2");
  await expect(page.getByTestId("review-recipients")).toHaveText("2");

  for (const [width, theme] of [
    [1280, "light"],
    [1280, "dark"],
    [390, "dark"],
    [390, "light"],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    const toggle = page.getByRole("button", { name: theme === "dark" ? "Dark mode" : "Light mode" });
    if (await toggle.isVisible()) await toggle.click();
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${width}`).toBe(true);
    await expectAccessible(page);
  }
  await saveScreenshot(page, "broadcast-new-segment-390");
  await page.setViewportSize({ width: 1280, height: 900 });

  await page.getByRole("button", { name: "Start broadcast" }).click();
  await expect(page).toHaveURL(/\/broadcasts\/bc_[^/?]+$/);
  const uid = new URL(page.url()).pathname.split("/").pop() ?? "";
  const res = await page.request.get(`/api/v3/broadcasts/${uid}`, { headers: { Authorization: `Bearer ${token}` } });
  const started = (await res.json()).data as { audience: { segmentUid: string }; counts: { total: number } };
  expect(started.audience.segmentUid).toBe(segment.segmentUid);
  expect(started.counts.total).toBe(count);
});
