import { expect, test } from "@playwright/test";
import { DEMO_SENDER, expectAccessible, generateToken, login, saveScreenshot } from "./helpers";

test("filter billing: table, totals and URL change; a reload shows the same view", async ({ page }) => {
  await login(page);
  await expect(page.getByTestId("billing-table")).toBeVisible();
  await expectAccessible(page);
  const before = await page.getByTestId("total-messages").textContent();

  await page.getByLabel("Template type").selectOption("marketing");
  await page.getByLabel("Billable").selectOption("payable");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/templateType=marketing/);
  await expect(page).toHaveURL(/billable=payable/);
  const after = await page.getByTestId("total-messages").textContent();
  expect(after).not.toBe(before);
  await expect(page.getByTestId("billing-row").first()).toBeVisible();
  // Every row of a payable-only view is in the payable class.
  for (const cls of await page.getByTestId("billing-row").locator("td:nth-child(6)").allTextContents()) {
    expect(cls).toBe("payable");
  }
  const payable = await page.getByTestId("total-payable").textContent();
  expect(payable).toBe(after);

  // Sort by rate, ascending.
  await page.getByRole("link", { name: /^Rate/ }).click();
  await expect(page).toHaveURL(/sortBy=rate/);
  const url = page.url();
  const firstRow = await page.getByTestId("billing-row").first().textContent();

  await page.reload();
  expect(page.url()).toBe(url);
  await expect(page.getByLabel("Template type")).toHaveValue("marketing");
  await expect(page.getByTestId("total-messages")).toHaveText(after ?? "");
  await expect(page.getByTestId("billing-row").first()).toHaveText(firstRow ?? "");

  // The detail drawer.
  await page
    .getByRole("link", { name: /^Details of message/ })
    .first()
    .click();
  await expect(page.getByRole("dialog", { name: "Billing record" })).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, "billing-filtered");
});

test("the CSV export holds the same rows as the API for the same filters", async ({ page, request }) => {
  await login(page);
  const token = await generateToken(page, `csv check ${Date.now()}`);
  const filters = "templateType=utility&status=delivered";
  await page.goto(`/billing?${filters}`);
  await expect(page).toHaveURL(/templateType=utility/);
  const downloadPromise = page.waitForEvent("download");
  await page.getByRole("link", { name: "Export CSV" }).click();
  const download = await downloadPromise;
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  const lines = Buffer.concat(chunks).toString("utf8").trim().split(/\r?\n/);
  const header = lines[0]?.split(",") ?? [];
  const uidAt = header.indexOf("billingUid");
  expect(uidAt).toBeGreaterThanOrEqual(0);
  const csvUids = lines.slice(1).map((l) => l.split(",")[uidAt]);

  const apiUids: string[] = [];
  for (let pageNo = 1; ; pageNo++) {
    const res = await request.get(`/api/v3/billing/messages?${filters}&limit=200&page=${pageNo}`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status()).toBe(200);
    const body = await res.json();
    apiUids.push(...body.data.billingRecords.map((r: { billingUid: string }) => r.billingUid));
    if (!body.data.pagination.hasMore) break;
  }
  expect(csvUids.length).toBeGreaterThan(0);
  expect(csvUids).toEqual(apiUids);
  await expect(page.getByTestId("total-messages")).toHaveText(apiUids.length.toLocaleString("en-US"));
  await saveScreenshot(page, "billing-export");
});

test("the ledger shows balance, credits and debits, with filters", async ({ page }) => {
  await login(page);
  await page.goto("/billing/ledger");
  await expect(page.getByTestId("ledger-balance")).toBeVisible();
  await page.getByLabel("Transaction type").selectOption("credit");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/transactionType=credit/);
  await expectAccessible(page);
  await saveScreenshot(page, "ledger");
});

test("free records show Free in the Rate column and an all-zero cost chart has a plain 0 axis", async ({ page }) => {
  await login(page);
  await page.goto("/billing?billable=free");
  await expect(page.getByTestId("billing-row").first()).toBeVisible();
  for (const rate of await page.getByTestId("billing-row").locator("td:nth-child(7)").allTextContents()) {
    expect(rate).toBe("Free");
  }
  // Free records cost nothing: one axis label, 0, not 0.00 three times.
  await expect(page.getByTestId("total-cost")).toHaveText("USD 0.00");
  await expect(page.getByTestId("axis-tick")).toHaveCount(1);
  await expect(page.getByTestId("axis-tick")).toHaveText("0");
  await expect(page.getByTestId("chart-all-zero")).toBeVisible();

  await page.goto("/billing?billable=payable");
  // The rows come with the page; the chart draws its axis once it has measured its box.
  await expect(page.getByTestId("billing-row").first()).toBeVisible();
  await expect.poll(() => page.getByTestId("axis-tick").count()).toBeGreaterThan(1);
  for (const rate of await page.getByTestId("billing-row").locator("td:nth-child(7)").allTextContents()) {
    // A message's price as money, exact (docs/dashboard.md "Money").
    expect(rate).toMatch(/^USD \d+\.\d{2,6}$/);
  }
  const ticks = await page.getByTestId("axis-tick").allTextContents();
  expect(ticks.length).toBeGreaterThan(1);
  expect(new Set(ticks).size).toBe(ticks.length);
  await expectAccessible(page);
});

test("a pricing category keeps its chart colour whatever the filters", async ({ page }) => {
  await login(page);
  const colourOf = async (series: string) =>
    page
      .locator(`[data-testid="chart-legend-item"][data-series="${series}"] span`)
      .first()
      .evaluate((el) => getComputedStyle(el).backgroundColor);
  await page.goto("/billing");
  const legend = await page.getByTestId("chart-legend-item").allTextContents();
  expect(legend.length).toBeGreaterThan(2);
  const utility = await colourOf("utility");
  const marketing = await colourOf("marketing");
  expect(utility).not.toBe(marketing);

  // Alone in the view, utility is still drawn in its own colour (not the first palette colour).
  await page.goto("/billing?templateType=utility");
  await expect(page.getByTestId("chart-legend-item")).toHaveText(["utility"]);
  expect(await colourOf("utility")).toBe(utility);
  const bar = page.locator('rect[data-series="utility"]').first();
  expect(await bar.evaluate((el) => getComputedStyle(el).fill)).toBe(utility);
  await page.goto("/billing?templateType=marketing");
  expect(await colourOf("marketing")).toBe(marketing);
});

test("Analytics and Billing say what they count, and the billed figure matches Billing for the same scope", async ({
  page,
}) => {
  await login(page);
  await page.goto("/analytics");
  await expect(page.getByTestId("analytics-scope")).toContainText("messages sent through Switchboard");
  await expect(page.getByTestId("analytics-scope")).toContainText(DEMO_SENDER.phoneNumber);
  const billed = (await page.getByTestId("analytics-billed").textContent()) ?? "";
  expect(Number(billed.replaceAll(",", ""))).toBeGreaterThan(0);
  await page.getByRole("link", { name: "Open them in Billing" }).click();
  await expect(page).toHaveURL(/\/billing\?sender=%2B15550100001&dateFrom=\d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId("total-messages")).toHaveText(billed);
  await expect(page.getByTestId("billing-scope")).toContainText(`Sender ${DEMO_SENDER.phoneNumber}`);
  await expect(page.getByTestId("billing-scope")).toContainText(/from \d{4}-\d{2}-\d{2}/);
  await expect(page.getByTestId("billing-scope")).toContainText("also those not sent through Switchboard");

  await page.goto("/billing");
  await expect(page.getByTestId("billing-scope")).toContainText("All senders");
  await expect(page.getByTestId("billing-scope")).toContainText("all dates");
});

test("Status and Pricing type are lists in any case; an unknown value is refused on the page, with no rows", async ({
  page,
}) => {
  await login(page);
  // Every "N total" says its count as the tiles do (thousands grouped).
  const total = (await page.getByTestId("total-messages").textContent()) ?? "";
  expect(total).toMatch(/^\d{1,3}(,\d{3})*$/);
  await expect(page.getByRole("navigation", { name: "Pagination" })).toContainText(`${total} total`);

  // A hand-written URL in another case selects the values.
  await page.goto("/billing?status=Delivered&pricingType=REGULAR");
  await expect(page.getByLabel("Status")).toHaveValue("delivered");
  await expect(page.getByLabel("Pricing type")).toHaveValue("regular");
  await expect(page.getByTestId("billing-row").first()).toBeVisible();
  for (const status of await page.getByTestId("billing-row").locator("td:nth-child(4)").allTextContents()) {
    expect(status).toBe("delivered");
  }
  // The select offers the statuses records hold.
  await page.getByLabel("Status").selectOption("failed");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/status=failed/);
  await expect(page.getByTestId("billing-row").first()).toContainText("failed");

  // An unknown value: said, under its field too, and nothing listed (not the unfiltered view, not an empty one).
  await page.goto("/billing?status=bogus&templateType=marketing");
  const refused = 'Status: "bogus" is not a billing status: use pending, accepted, sent, delivered, read or failed.';
  await expect(page.getByTestId("billing-filters-refused")).toContainText(refused);
  await expect(page.getByLabel("Status")).toHaveValue("bogus");
  await expect(page.getByLabel("Status")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Template type")).toHaveValue("marketing");
  await expect(page.getByTestId("billing-table")).toHaveCount(0);
  await expect(page.getByTestId("total-messages")).toHaveCount(0);
  await expectAccessible(page);
  await saveScreenshot(page, "billing-filter-refused");
  await page.goto("/billing?pricingType=bogus");
  await expect(page.getByTestId("billing-filters-refused")).toContainText(
    'Pricing type: "bogus" is not a pricing type: use regular, free_customer_service or free_entry_point.',
  );
  await page.getByRole("link", { name: "Reset" }).click();
  await expect(page.getByTestId("billing-table")).toBeVisible();
});
