// The audit log (docs/security.md "Audit log"): an owner creates a token, finds its entry on
// the Audit log page (actor, target, address, user agent), filters to it, and exports it as CSV.
import { expect, test } from "@playwright/test";
import { DEMO_EMAIL, expectAccessible, generateToken, hydrated, login, saveScreenshot } from "./helpers";

test("an owner reads the audit entry of a token they created and exports it as CSV", async ({ page }) => {
  await login(page);
  const name = `e2e audited ${Date.now()}`;
  const token = await generateToken(page, name);
  const prefix = token.slice(0, 13);

  await page.getByRole("link", { name: "Audit log" }).click();
  await expect(page.getByRole("heading", { name: "Audit log" })).toBeVisible();
  const entry = page.getByTestId("audit-row").filter({ hasText: name });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText("token.created");
  await expect(entry).toContainText(DEMO_EMAIL);
  await expect(entry).toContainText(prefix);
  await expect(entry).toContainText("Chrome");
  // The browser's address (localhost: 127.0.0.1 or ::1), carried from the socket to the server action.
  await expect(entry).toContainText(/127\.0\.0\.1|::1/);
  // The value shown once is never in the log.
  await expect(page.getByTestId("audit-table")).not.toContainText(token);
  await expectAccessible(page);

  // Filter to this action and actor, then export what the filter shows.
  await page.getByLabel("Action", { exact: true }).selectOption("token.created");
  await page.getByLabel("Actor (email, token prefix, operator, system)").fill(DEMO_EMAIL);
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=token.created/);
  await expect(page.getByTestId("audit-row").filter({ hasText: name })).toHaveCount(1);
  await saveScreenshot(page, "audit-log");

  const exportLink = page.getByRole("link", { name: "Export CSV" });
  await hydrated(exportLink);
  const downloadPromise = page.waitForEvent("download");
  await exportLink.click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^audit-\d{4}-\d{2}-\d{2}\.csv$/);
  const chunks: Buffer[] = [];
  for await (const c of await download.createReadStream()) chunks.push(Buffer.from(c));
  const csv = Buffer.concat(chunks).toString("utf8");
  const lines = csv.trim().split(/\r?\n/);
  expect(lines[0]).toBe("createdAt,action,actorType,actor,targetType,targetUid,ip,userAgent,details,auditEventUid");
  const line = lines.find((l) => l.includes(name));
  expect(line).toContain("token.created");
  expect(line).toContain(DEMO_EMAIL);
  expect(lines.slice(1).every((l) => l.includes(",token.created,"))).toBe(true);
  expect(csv).not.toContain(token);

  // The export itself is recorded.
  await page.reload();
  await page.getByLabel("Action", { exact: true }).selectOption("export.downloaded");
  await page.getByLabel("Actor (email, token prefix, operator, system)").fill("");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page.getByTestId("audit-row").first()).toContainText("export audit");
});
