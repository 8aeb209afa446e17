import { expect, test } from "@playwright/test";
import { expectAccessible, generateToken, hydrated, login, saveScreenshot } from "./helpers";

test("generate a token, use it on the API, revoke it, and see the API reject it", async ({ page, request }) => {
  await login(page);
  const name = `e2e token ${Date.now()}`;
  const token = await generateToken(page, name);
  expect(token).toMatch(/^swb_live_/);
  await expectAccessible(page);

  const ok = await request.get("/api/v3/billing/messages?limit=1", { headers: { Authorization: `Bearer ${token}` } });
  expect(ok.status()).toBe(200);

  const row = page.getByTestId("token-row").filter({ hasText: name });
  await expect(row).toContainText("Global");
  await row.getByRole("button", { name: "Revoke" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Revoke token" }).click();
  await expect(row).toContainText("revoked");

  const rejected = await request.get("/api/v3/billing/messages?limit=1", {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(rejected.status()).toBe(401);
  expect((await rejected.json()).error_code).toBe("INVALID_AUTH_TOKEN");

  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  await saveScreenshot(page, "tokens");
});

test("a read-only token by checkboxes: its permissions on the list and its page, refused outside them", async ({
  page,
  request,
}) => {
  await login(page);
  const name = `e2e read-only ${Date.now()}`;
  await page.goto("/tokens");
  const restricted = page.getByLabel("Only these (a restricted token)");
  await hydrated(restricted);
  await page.getByLabel("Name").fill(name);
  await restricted.check();
  await page.getByRole("checkbox", { name: /^billing/ }).check();
  await page.getByRole("checkbox", { name: /^messages\.read/ }).check();
  await page.getByRole("button", { name: "Generate token" }).click();
  const value = page.getByTestId("new-token");
  await expect(value).toBeVisible();
  const token = (await value.textContent())?.trim() ?? "";

  const row = page.getByTestId("token-row").filter({ hasText: name });
  await expect(row.getByTestId("token-permissions")).toHaveText("Only messages.read, billing");
  const auth = { Authorization: `Bearer ${token}` };
  expect((await request.get("/api/v3/billing/messages?limit=1", { headers: auth })).status()).toBe(200);
  const send = await request.post("/api/v3/send", { headers: auth, data: {} });
  expect(send.status()).toBe(403);
  expect(await send.json()).toMatchObject({
    error_code: "TOKEN_PERMISSION_DENIED",
    details: { permission: "messages.send" },
  });

  await row.getByRole("link").click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(page.getByTestId("token-permissions")).toHaveText("Permissions: Only messages.read, billing");
  await expectAccessible(page);
  await saveScreenshot(page, "token-restricted");
});

test("rotate a token with a grace period, then read its request log", async ({ page, request }) => {
  await login(page);
  const name = `e2e rotate ${Date.now()}`;
  const old = await generateToken(page, name);
  const row = page.getByTestId("token-row").filter({ hasText: name });
  await row.getByLabel(`Grace period for “${name}”`).selectOption("24");
  await row.getByRole("button", { name: "Rotate" }).click();
  const value = page.getByTestId("rotated-token-value");
  await expect(value).toBeVisible();
  const successor = (await value.textContent())?.trim() ?? "";
  expect(successor).toMatch(/^swb_live_/);
  expect(successor).not.toBe(old);
  await expect(page.getByTestId("rotated-token")).toContainText("The old token stops working");

  // Both work during the grace; the old one's row shows when it stops.
  for (const token of [old, successor]) {
    const res = await request.get("/api/v3/billing/messages?limit=1", {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status()).toBe(200);
  }
  await page.reload();
  const rows = page.getByTestId("token-row").filter({ hasText: name });
  await expect(rows).toHaveCount(2);
  // Newest first: the successor never expires; the old token shows its stop time.
  await expect(rows.nth(0)).toContainText("Never");
  await expect(rows.nth(1)).not.toContainText("Never");

  // The successor's request log: one request with the token in the query, shown redacted.
  await request.get(`/api/v3/billing/messages?limit=2&token=${successor}`);
  await request.get("/api/v3/billing/messages?limit=3", { headers: { Authorization: `Bearer ${successor}` } });
  const newest = rows.first();
  await newest.getByRole("link").click();
  await expect(page.getByRole("heading", { name })).toBeVisible();
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId("usage-row")).toHaveCount(3, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await expect(page.getByTestId("usage-totals")).toContainText("3 requests, 0 errors");
  await expect(page.locator("body")).not.toContainText(successor);
  await expect(page.getByTestId("usage-row").filter({ hasText: "redacted" })).toHaveCount(1);
  await expectAccessible(page);
  await saveScreenshot(page, "token-usage");
});

test("the senders page lists the demo numbers", async ({ page }) => {
  await login(page);
  await page.goto("/senders");
  await expect(page.getByRole("heading", { name: "Senders" })).toBeVisible();
  await expect(page.getByRole("row")).not.toHaveCount(1);
  await expectAccessible(page);
  await saveScreenshot(page, "senders");
});
