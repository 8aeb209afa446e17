// Recovery of failed deliveries in the dashboard (docs/webhook-recovery.md): start one from
// the webhook page and watch its progress bar fill as the background job re-queues them.
import { expect, test } from "@playwright/test";
import { expectAccessible, hydrated, login, saveScreenshot } from "./helpers";

test("start a recovery of failed deliveries and watch its progress until every one is re-queued", async ({ page }) => {
  await login(page);
  await page.goto("/webhooks");
  const name = `E2E recovery ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  // Nothing listens there: every attempt fails; without retries a delivery is FAILED at once.
  await page.getByLabel("Endpoint URL (HTTPS)").fill("https://127.0.0.1:59998/hook");
  await page.getByLabel("Retry failed deliveries").uncheck();
  await page.getByLabel("message.status.delivered").check();
  await page.getByRole("button", { name: "Create webhook" }).click();
  await expect(page.getByTestId("signing-secret")).toBeVisible();
  await page.getByTestId("webhook-row").filter({ hasText: name }).getByRole("link", { name }).click();

  const rows = page.getByTestId("delivery-row");
  for (const n of [1, 2]) {
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(rows).toHaveCount(n);
  }
  await expect(async () => {
    await page.reload();
    await expect(rows.filter({ hasText: "FAILED" })).toHaveCount(2, { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });

  // A window that starts in the future is refused under its field.
  const since = page.getByLabel("Since");
  await hydrated(since); // the page was just reloaded
  const defaultSince = await since.inputValue();
  await since.fill("2999-01-01T00:00");
  await page.getByRole("button", { name: "Recover failed deliveries" }).click();
  await expect(since).toHaveAttribute("aria-invalid", "true");
  await expect(since).toHaveAccessibleDescription(/since must be in the past/);
  await expect(page.getByTestId("recovery-progress")).toHaveCount(0);

  await since.fill(defaultSince);
  await page.getByRole("button", { name: "Recover failed deliveries" }).click();
  const progress = page.getByTestId("recovery-progress");
  await expect(progress).toBeVisible();
  await expect(page.getByTestId("recovery-status")).toHaveText("COMPLETED");
  await expect(page.getByTestId("recovery-counts")).toHaveText("2 of 2 re-queued");
  await expect(page.getByRole("progressbar", { name: "Recovery progress" })).toHaveAttribute("aria-valuenow", "100");

  // Each failed delivery was sent once more (and failed again: nothing listens).
  await expect(async () => {
    await page.reload();
    for (const row of await rows.all()) await expect(row.locator("td").nth(4)).toHaveText("2", { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  // The latest recovery stays on the page after a reload.
  await expect(page.getByTestId("recovery-counts")).toHaveText("2 of 2 re-queued");
  await expectAccessible(page);
  await saveScreenshot(page, "webhook-recovery");
});
