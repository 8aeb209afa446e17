import { type CDPSession, expect, type Page, test } from "@playwright/test";
import { envelopeFor } from "../lib/domains/provider/simulator-callbacks";
import { inboundTextChange } from "../lib/domains/provider/simulator-inbound";
import { DEMO_SENDER, login, signForApp } from "./helpers";

// Live updates (docs/inbox.md "Live updates"): the open inbox holds ONE stream for the tab
// (the list, the thread and the navigation's badge share it), its polling is off while the
// stream is open, and a new inbound message still appears without a reload; left open for
// two minutes (past eight of the stream's periodic session checks), it is still the same
// stream and still live.

async function simulateInbound(page: Page, from: string, name: string, text: string): Promise<void> {
  const body = envelopeFor([inboundTextChange(DEMO_SENDER, { from, text, name })]);
  const res = await page.request.post("/api/provider/webhook", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(body) },
  });
  expect(res.status()).toBe(200);
}

/** The tab's live-stream events as Chromium receives them (named events only: `ping` is the heartbeat). */
async function streamEvents(page: Page): Promise<{ names: string[]; cdp: CDPSession }> {
  const names: string[] = [];
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  cdp.on("Network.eventSourceMessageReceived", (e) => names.push(e.eventName));
  return { names, cdp };
}

test("a new inbound message appears in the inbox without a reload, over the tab's one live stream", async ({
  page,
}) => {
  // The inbox document's streams (by the Referer its requests carry): the page signed in to
  // has its own, which may open after login returns when the machine is busy.
  const streams: string[] = [];
  page.on("request", (r) => {
    const from = r.headers().referer;
    if (new URL(r.url()).pathname === "/api/dashboard/live" && from && new URL(from).pathname === "/inbox") {
      streams.push(r.url());
    }
  });
  await login(page);
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

test("an inbox left open for two minutes keeps its one stream past the periodic checks, and a new message still appears without a reload", async ({
  page,
}) => {
  // Eight checks of 15 s each, and the steps around them.
  test.setTimeout(240_000);
  const streams: string[] = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/dashboard/live") streams.push(r.url());
  });
  await login(page);
  const events = await streamEvents(page);
  await page.goto("/inbox");
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
  await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "on");
  const opened = streams.length;

  // Every 15 s the server reads the stream's session again and, when it still holds, sends a
  // ping: eight pings are eight checks passed (two minutes), on the same stream.
  const checks = () => {
    if (events.names.includes("end")) return "the stream ended";
    return events.names.filter((n) => n === "ping").length >= 8 ? "8 checks passed" : "checking";
  };
  await expect.poll(checks, { timeout: 180_000, intervals: [5_000] }).toBe("8 checks passed");
  expect(streams.length, "still the stream the page opened: no reconnection").toBe(opened);
  await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "on");

  const contact = `+1415558${String(Date.now()).slice(-5)}`;
  const name = `Rae ${contact.slice(-5)}`;
  await simulateInbound(page, contact, name, "Still there after two minutes?");
  // Live, not the fallback polling (off while the stream is open): within a few seconds.
  await expect(page.getByTestId("conversation-item").filter({ hasText: name })).toBeVisible({ timeout: 5_000 });
  await expect(page.locator("[data-live]")).toHaveAttribute("data-live", "on");
  await events.cdp.detach();
});
