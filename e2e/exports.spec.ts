// Every dashboard export streams with visible progress (components/dashboard/csv-export-link.tsx).
import { expect, test } from "@playwright/test";
import { login, saveScreenshot } from "./helpers";

test("the full billing export shows its progress and saves every row", async ({ page }) => {
  test.setTimeout(240_000);
  await login(page);
  // Up to yesterday (UTC): a message other tests send meanwhile (a survey, a status that
  // arrives late) does not change the view's rows between its count and the export.
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  await page.goto(`/billing?dateTo=${yesterday}`);
  const total = Number(((await page.getByTestId("total-messages").textContent()) ?? "").replace(/,/g, ""));
  expect(total).toBeGreaterThan(10_000);
  const downloadPromise = page.waitForEvent("download", { timeout: 180_000 });
  await page.getByRole("link", { name: "Export CSV" }).click();
  const progress = page.getByTestId("export-progress");
  await expect(progress).toBeVisible();
  await expect(progress.getByRole("progressbar", { name: "Export progress" })).toBeVisible();
  await expect(progress).toContainText(`of ${total.toLocaleString("en-US")} rows`);
  await saveScreenshot(page, "billing-export-progress");
  const download = await downloadPromise;
  const chunks: Buffer[] = [];
  for await (const c of await download.createReadStream()) chunks.push(Buffer.from(c));
  const lines = Buffer.concat(chunks).toString("utf8").trim().split(/\r?\n/);
  expect(lines[0]).toContain("billingUid");
  expect(lines.length - 1).toBe(total);
  await expect(progress).toBeHidden();
  await expect(page.getByRole("link", { name: "Export CSV" })).toBeVisible();
});
