// Endpoint health in the dashboard (docs/event-pipeline.md "Endpoint health"): a failing
// endpoint's page shows its breaker open with the thresholds; an endpoint the service
// disabled (410 Gone) raises the banner, whose Re-enable sets it ACTIVE again.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, login } from "./helpers";

let server: http.Server;
let base = "";

test.beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(req.url === "/gone" ? 410 : 500, { "content-type": "text/plain" });
      res.end("no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function createWebhook(page: Page, name: string, url: string) {
  await page.goto("/webhooks");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Endpoint URL (HTTPS)").fill(url);
  await page.getByLabel("message.status.delivered").check();
  await page.getByRole("button", { name: "Create webhook" }).click();
  await expect(page.getByTestId("signing-secret")).toBeVisible();
  await page.getByTestId("webhook-row").filter({ hasText: name }).getByRole("link", { name }).click();
  await expect(page.getByTestId("breaker-state")).toContainText("CLOSED");
}

async function sendTestEvents(page: Page, n: number) {
  for (let i = 1; i <= n; i++) {
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByTestId("delivery-row")).toHaveCount(i);
  }
}

test("a failing endpoint's breaker opens on its page, with the thresholds", async ({ page }) => {
  await login(page);
  await createWebhook(page, `E2E down ${Date.now()}`, `${base}/down`);
  await expect(page.getByTestId("breaker-thresholds")).toContainText("after 5 failed attempts in a row");
  await sendTestEvents(page, 5);
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("breaker-state")).toContainText("OPEN", { timeout: 1000 });
  }).toPass({ timeout: 45_000 });
  await expect(page.getByText("Next probe")).toBeVisible();
  await expectAccessible(page);
});

test("an endpoint the service disabled shows the banner; Re-enable makes it active again", async ({ page }) => {
  await login(page);
  const name = `E2E gone ${Date.now()}`;
  await createWebhook(page, name, `${base}/gone`);
  await sendTestEvents(page, 1);
  const banner = page.getByTestId("webhook-disabled-banner");
  await expect(async () => {
    await page.reload();
    await expect(banner).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 45_000 });
  await expect(banner).toContainText("410 Gone");
  await expect(page.getByTestId("webhook-status")).toHaveText("Status: INACTIVE");
  await expectAccessible(page);

  await page.goto("/webhooks");
  const listed = page.getByTestId("webhook-disabled-banner");
  await expect(listed).toContainText(name);
  await listed.getByRole("listitem").filter({ hasText: name }).getByRole("button", { name: "Re-enable" }).click();
  await expect(page.getByTestId("webhook-disabled-banner").filter({ hasText: name })).toHaveCount(0);
  await expect(page.getByTestId("webhook-row").filter({ hasText: name })).toContainText("ACTIVE");
});
