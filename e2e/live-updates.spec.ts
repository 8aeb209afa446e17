import { expect, type Page, test } from "@playwright/test";
import { envelopeFor } from "../lib/domains/provider/simulator-callbacks";
import { inboundTextChange } from "../lib/domains/provider/simulator-inbound";
import { DEMO_SENDER, login, signForApp } from "./helpers";

// Live updates (docs/inbox.md "Live updates"): the open inbox holds ONE stream for the tab
// (the list, the thread and the navigation's badge share it), its polling is off while the
// stream is open, and a new inbound message still appears without a reload.

async function simulateInbound(page: Page, from: string, name: string, text: string): Promise<void> {
  const body = envelopeFor([inboundTextChange(DEMO_SENDER, { from, text, name })]);
  const res = await page.request.post("/api/provider/webhook", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(body) },
  });
  expect(res.status()).toBe(200);
}

test("a new inbound message appears in the inbox without a reload, over the tab's one live stream", async ({
  page,
}) => {
  const streams: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/dashboard/live") streams.push(r.url());
  });
  await login(page);
  streams.length = 0; // the page signed in to had its own stream; count the inbox document's
  await page.goto("/inbox");
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
  // The stream is open: the list no longer polls.
  await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "on");

  const contact = `+1415559${String(Date.now()).slice(-5)}`;
  const name = `Lou ${contact.slice(-5)}`;
  await simulateInbound(page, contact, name, "Do you deliver on Sundays?");
  const row = page.getByTestId("conversation-item").filter({ hasText: name });
  await expect(row).toBeVisible();
  await expect(row).toContainText("1 unread");

  // Open it: the thread joins the same stream; the next message arrives in the thread.
  await row.click();
  const thread = page.getByRole("log", { name: `Messages with ${name}` });
  await expect(thread.getByTestId("thread-message").filter({ hasText: "Do you deliver on Sundays?" })).toBeVisible();
  await simulateInbound(page, contact, name, "Or Saturdays?");
  await expect(thread.getByTestId("thread-message").filter({ hasText: "Or Saturdays?" })).toBeVisible();
  await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "on");
  expect(streams, "one live stream for the whole tab").toHaveLength(1);
});
