import { expect, test } from "@playwright/test";
import { expectAccessible, generateToken, login, saveScreenshot } from "./helpers";

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

test("the senders page lists the demo numbers", async ({ page }) => {
  await login(page);
  await page.goto("/senders");
  await expect(page.getByRole("heading", { name: "Senders" })).toBeVisible();
  await expect(page.getByRole("row")).not.toHaveCount(1);
  await expectAccessible(page);
  await saveScreenshot(page, "senders");
});
