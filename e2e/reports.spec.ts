// The support Reports page (docs/reports.md "The dashboard's Reports page"): a contact's message counts in
// today's period, the period picker changes the figures' range (the previous period beside
// each), a table exports as CSV, the group picker's Label groups the table by label (the new
// contact's conversation has none: the "No label" row) and exports it, the hours toggle (the
// demo has business hours: they are the default) and the label and member filters narrow the
// page and its exports, and the page is accessible at a phone's and a desktop's width in both themes.
import { expect, test } from "@playwright/test";
import { contactWrites, expectAccessible, hydrated, login, saveScreenshot } from "./helpers";

test("the reports page: a period change, a CSV export, axe at 390 and 1280 px in both themes", async ({ page }) => {
  // Two exports, two groupings and axe at four sizes and themes over the demo's 90 days: 90 s at load 12.
  test.setTimeout(180_000);
  await login(page);
  await contactWrites(page, `+1555${String(Date.now()).slice(-7)}`, "Where is my order?");

  await page.goto("/reports");
  await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
  const period = page.getByRole("navigation", { name: "Period" });
  await expect(period.getByRole("link", { name: "Last 30 days" })).toHaveAttribute("aria-current", "page");
  const monthScope = (await page.getByTestId("reports-scope").textContent()) ?? "";
  const monthCount = Number((await page.getByTestId("figure-conversations").textContent())?.replace(/,/g, ""));
  expect(monthCount).toBeGreaterThan(0);

  await period.getByRole("link", { name: "Last 7 days" }).click();
  await expect(page).toHaveURL(/[?&]days=7/);
  await expect(period.getByRole("link", { name: "Last 7 days" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("reports-scope")).not.toHaveText(monthScope);
  const weekCount = Number((await page.getByTestId("figure-conversations").textContent())?.replace(/,/g, ""));
  expect(weekCount).toBeGreaterThan(0);
  expect(weekCount).toBeLessThanOrEqual(monthCount);
  await expect(page.getByTestId("previous-conversations")).toContainText("Previous period:");
  await expect(page.getByTestId("figure-sla-breaches")).toHaveText(/^\d[\d,]*$/);
  await expect(page.getByTestId("chart-volume").locator("svg").first()).toBeVisible();
  await expect(page.getByTestId("member-row").first()).toBeVisible();
  await expect(page.getByTestId("support-heatmap")).toBeVisible();

  const exportLink = page.getByRole("link", { name: "Export By member as CSV" });
  await hydrated(exportLink);
  const downloadPromise = page.waitForEvent("download");
  await exportLink.click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^support-members-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const chunks: Buffer[] = [];
  for await (const c of await download.createReadStream()) chunks.push(Buffer.from(c));
  const lines = Buffer.concat(chunks).toString("utf8").trim().split(/\r?\n/);
  expect(lines[0]).toMatch(/^member,conversations,reopened,inbound,outbound,firstResponseMedianSeconds/);
  expect(lines[0]).toMatch(/,slaBreaches,csatResponses,csatHappyPercent$/);
  // Both kinds of durations, whatever the page's hours toggle shows.
  expect(lines[0]).toContain(
    ",firstResponseP90Seconds,firstResponseBusinessMedianSeconds,firstResponseBusinessP90Seconds,",
  );
  expect(lines.length - 1).toBe(await page.getByTestId("member-row").count());
  await saveScreenshot(page, "reports-7-days");

  // Both themes at both widths without a reload: the theme is the class on <html> (what the
  // header's toggle sets) and the charts follow the container's width.
  for (const dark of [false, true]) {
    await page.evaluate((on) => document.documentElement.classList.toggle("dark", on), dark);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByTestId("chart-times").locator("svg").first()).toBeVisible();
      // The charts follow their box on the next resize observation, a frame or more after the
      // viewport changes: the page settles without sideways scroll (a lasting overflow fails).
      await expect
        .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), {
          message: `${width} px ${dark ? "dark" : "light"}: no sideways scroll`,
        })
        .toBeLessThanOrEqual(0);
      await expectAccessible(page);
    }
  }
});

test("the group picker's Label: the table by label, its CSV, axe", async ({ page }) => {
  await login(page);
  // A conversation without a label in today's period: the "No label" row.
  await contactWrites(page, `+1555${String(Date.now()).slice(-7)}`, "Do you ship to Norway?");
  await page.goto("/reports?days=7");
  // The period stays when the grouping changes; the table's rows are the labels.
  const groupBy = page.getByRole("navigation", { name: "Group by" });
  await expect(groupBy.getByRole("link", { name: "Day" })).toHaveAttribute("aria-current", "page");
  await groupBy.getByRole("link", { name: "Label" }).click();
  await expect(page).toHaveURL(/[?&]group=label/);
  await expect(page).toHaveURL(/[?&]days=7/);
  await expect(groupBy.getByRole("link", { name: "Label" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("label-row").filter({ hasText: "No label" })).toBeVisible();
  const labelExport = page.getByRole("link", { name: "Export By label as CSV" });
  await hydrated(labelExport);
  const labelDownload = page.waitForEvent("download");
  await labelExport.click();
  const labels = await labelDownload;
  expect(labels.suggestedFilename()).toMatch(/^support-labels-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/);
  const labelChunks: Buffer[] = [];
  for await (const c of await labels.createReadStream()) labelChunks.push(Buffer.from(c));
  const labelLines = Buffer.concat(labelChunks).toString("utf8").trim().split(/\r?\n/);
  expect(labelLines[0]).toMatch(/^label,conversations,.*,slaBreaches,csatResponses,csatHappyPercent$/);
  expect(labelLines.length - 1).toBe(await page.getByTestId("label-row").count());
  await expectAccessible(page);
  await saveScreenshot(page, "reports-by-label");
});

test("the hours toggle and the label and member filters, axe", async ({ page }) => {
  await login(page);
  await page.goto("/reports?days=90");
  const hours = page.getByRole("navigation", { name: "Hours" });
  await expect(hours.getByRole("link", { name: "Business hours" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("reports-hours")).toContainText("only the account's business hours");
  await hours.getByRole("link", { name: "All hours" }).click();
  await expect(page).toHaveURL(/[?&]hours=all/);
  await expect(hours.getByRole("link", { name: "All hours" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("reports-hours")).toHaveText("Durations count every hour.");

  // The demo member's figures of the VIP conversations: one member row, the toggle kept.
  const filters = page.getByRole("form", { name: "Filters" });
  await hydrated(filters.getByRole("button", { name: "Apply filters" }));
  await filters.getByLabel("Label").selectOption("VIP");
  await filters.getByLabel("Member").selectOption("demo@switchboard.test");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]label=VIP/);
  await expect(page).toHaveURL(/[?&]member=demo%40switchboard\.test/);
  await expect(page).toHaveURL(/[?&]hours=all/);
  await expect(page.getByTestId("reports-hours")).toContainText(
    "Only conversations labelled VIP and the figures of demo@switchboard.test.",
  );
  await expect(page.getByTestId("member-row")).toHaveCount(1);
  await expect(page.getByTestId("member-row")).toContainText("demo@switchboard.test");
  await expect(page.getByRole("link", { name: "Export By member as CSV" })).toHaveAttribute(
    "href",
    /label=VIP&member=demo%40switchboard\.test/,
  );
  await expectAccessible(page);
  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/label=/);
  await expect(hours.getByRole("link", { name: "All hours" })).toHaveAttribute("aria-current", "page");
  // The form shows the page's filters again: none.
  await expect(filters.getByLabel("Label")).toHaveValue("");
  await expect(filters.getByLabel("Member")).toHaveValue("");

  // Each row of the table by member is a filter too: the periods nobody has answered yet.
  await hydrated(filters.getByRole("button", { name: "Apply filters" }));
  await filters.getByLabel("Member").selectOption("Not answered yet");
  await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/[?&]member=unanswered/);
  await expect(page.getByTestId("reports-hours")).toContainText("Only the periods no person has answered yet.");
  await expect(page.getByTestId("member-row")).toHaveCount(1);
  // The row is named as the filter names it, not by its key.
  await expect(page.getByTestId("member-row").locator("td").first()).toHaveText("Not answered yet");
});
