// The delivery log of a webhook (app/(dashboard)/webhooks/[uid]/delivery-log.tsx): a real
// endpoint answers, the log refreshes, filters by status and opens one delivery's payload,
// headers and attempts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { expectAccessible, generateToken, login, saveScreenshot } from "./helpers";

test("the delivery log shows payload, headers and each attempt, filters by status and refreshes", async ({
  page,
  request,
}) => {
  const received: string[] = [];
  const receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      received.push(body);
      res.writeHead(200, { "Content-Type": "text/plain" });
      res.end("received by the e2e endpoint");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;
  try {
    await login(page);
    const token = await generateToken(page, `delivery log ${Date.now()}`);
    const created = await request.post("/api/v3/webhooks", {
      headers: { Authorization: `Bearer ${token}` },
      data: {
        webhook: {
          name: `Log ${Date.now()}`,
          endpointUrl: `http://127.0.0.1:${port}/hook`,
          events: ["message.status.read"],
        },
      },
    });
    expect(created.status()).toBe(200);
    const uid = (await created.json()).data.webhookUid as string;

    await page.goto(`/webhooks/${uid}`);
    await expect(page.getByRole("heading", { name: "Delivery log" })).toBeVisible();
    await page.getByRole("button", { name: "Send test event" }).click();
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);
    // The worker delivers in the background: Refresh until the log shows the answer.
    await expect(async () => {
      await page.getByRole("button", { name: "Refresh" }).click();
      await expect(page.getByTestId("delivery-row")).toContainText("SUCCEEDED", { timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByTestId("delivery-log-refreshed")).toContainText("Refreshed");
    expect(received).toHaveLength(1);

    // Filter by status: none failed, one succeeded; the URL keeps the filter.
    await page.getByLabel("Delivery status").selectOption("FAILED");
    await expect(page).toHaveURL(/status=FAILED/);
    await expect(page.getByText("No failed deliveries")).toBeVisible();
    await expect(page.getByTestId("delivery-row")).toHaveCount(0);
    await page.getByLabel("Delivery status").selectOption("SUCCEEDED");
    await expect(page).toHaveURL(/status=SUCCEEDED/);
    await expect(page.getByTestId("delivery-row")).toHaveCount(1);

    // One delivery: the payload as sent, the headers (secrets masked) and the attempt.
    await page.getByRole("link", { name: /^Details of delivery/ }).click();
    const detail = page.getByTestId("delivery-detail");
    await expect(detail).toBeVisible();
    const payload = JSON.parse((await page.getByTestId("delivery-payload").textContent()) ?? "{}");
    expect(payload).toEqual(JSON.parse(received[0] ?? "{}"));
    expect(payload.type).toBe("webhook.test");
    const headers = page.getByTestId("delivery-headers");
    await expect(headers).toContainText("webhook-id");
    await expect(headers).toContainText("webhook-signature");
    const attempt = page.getByTestId("attempt-row");
    await expect(attempt).toHaveCount(1);
    await expect(attempt).toContainText("200");
    await expect(attempt).toContainText("received by the e2e endpoint");
    await expect(attempt).toContainText(" ms");
    await expectAccessible(page);
    await saveScreenshot(page, "webhook-delivery-log");
  } finally {
    receiver.close();
  }
});
