import { expect, type Page, test } from "@playwright/test";
import { envelopeFor } from "../lib/domains/provider/simulator-callbacks";
import { inboundReactionChange, inboundTextChange } from "../lib/domains/provider/simulator-inbound";
import {
  accessibleAt,
  DEMO_EMAIL,
  DEMO_SENDER,
  expectAccessible,
  hydrated,
  login,
  saveScreenshot,
  signForApp,
} from "./helpers";

// The inbox from the browser: inbound messages arrive as signed provider callbacks through
// the real endpoint (as the simulator and `cli simulate:inbound` send them), the inbox refetches on the live stream,
// replies go out through the simulator, whose status callbacks come back as ticks.

let seq = 0;
// A valid number (+1 415 55x xxxx): the composer and the blacklist parse it as every write of a number does.
const uniqueContact = (prefix: string) => `${prefix}${String(Date.now() + seq++).slice(-4)}`;

/** A contact with a profile name writes to the demo's default sender; returns once stored. */
async function simulateInbound(page: Page, from: string, name: string, text: string): Promise<void> {
  const body = envelopeFor([inboundTextChange(DEMO_SENDER, { from, text, name })]);
  const res = await page.request.post("/api/provider/webhook", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(body) },
  });
  expect(res.status()).toBe(200);
}

const item = (page: Page, text: string) => page.getByTestId("conversation-item").filter({ hasText: text });

test("the agent reacts to a message and quotes another; the contact's reaction shows without a reload", async ({
  page,
}) => {
  await login(page);
  const contact = uniqueContact("+1415557");
  const name = `Kim ${contact.slice(-5)}`;
  await simulateInbound(page, contact, name, "Do you have it in blue?");
  await simulateInbound(page, contact, name, "Or in red?");
  await page.goto("/inbox");
  await item(page, name).click();
  await expect(page).toHaveURL(/[?&]c=conv_/);
  const uid = new URL(page.url()).searchParams.get("c") ?? "";
  const thread = page.getByRole("log", { name: `Messages with ${name}` });
  const message = (text: string) => thread.getByTestId("thread-message").filter({ hasText: text });
  await hydrated(message("Or in red?"));

  // React 👍 to the first: it shows on the bubble, not as a line.
  await message("Do you have it in blue?").getByRole("button", { name: "React", exact: true }).click();
  await message("Do you have it in blue?").getByRole("button", { name: "React with 👍" }).click();
  await expect(message("Do you have it in blue?").locator('[data-testid="reactions"] [data-by="business"]')).toHaveText(
    /👍/,
  );

  // Quote the second: the reply is drawn under the quote, which scrolls to the message quoted.
  await message("Or in red?").getByRole("button", { name: "Reply", exact: true }).click();
  await expect(page.getByTestId("reply-quote")).toContainText("Or in red?");
  const reply = page.getByRole("textbox", { name: "Reply" });
  await expect(reply).toBeFocused();
  await page.keyboard.type("Red is in stock.");
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("reply-quote")).toHaveCount(0);
  const ours = message("Red is in stock.");
  await expect(ours).toHaveAttribute("data-direction", "outbound");
  await expect(ours.getByTestId("quoted-message")).toContainText("Or in red?");
  await ours.getByTestId("quoted-message").click();
  await expect(message("Or in red?").first()).toBeFocused();

  // The contact reacts ❤️ to our reply: it appears on it without a reload.
  // Its provider id, once the provider accepted it.
  const wamid = async () => {
    const answer = await page.request.get(`/api/dashboard/conversations/${uid}`);
    const { messages } = (await answer.json()).data as {
      messages: { providerMessageId: string | null; content: { text?: { body?: string } } }[];
    };
    return messages.find((m) => m.content.text?.body === "Red is in stock.")?.providerMessageId ?? "";
  };
  await expect.poll(wamid).toMatch(/^wamid\./);
  const body = envelopeFor([
    inboundReactionChange(DEMO_SENDER, { from: contact, name, messageId: await wamid(), emoji: "❤️" }),
  ]);
  const res = await page.request.post("/api/provider/webhook", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(body) },
  });
  expect(res.status()).toBe(200);
  await expect(ours.locator('[data-testid="reactions"] [data-by="contact"]')).toHaveText(/❤️/);
  await expect(thread.getByTestId("thread-message").filter({ hasText: "Reacted" })).toHaveCount(0);
  await expect(item(page, name)).toContainText("Reacted ❤️ to: Red is in stock.");
  await saveScreenshot(page, "inbox-reactions");
  // The thread with both reactions and the quoted reply, at a phone's and a desktop's width in both themes.
  await accessibleAt(page, [
    [1280, "light"],
    [1280, "dark"],
    [390, "dark"],
    [390, "light"],
  ]);
  await expect(ours.getByTestId("quoted-message")).toBeVisible();
});

test("an inbound message appears in the open inbox without a reload; the reply goes out and reaches read", async ({
  page,
}) => {
  await login(page);
  await page.getByRole("link", { name: /^Inbox/ }).click();
  await expect(page).toHaveURL(/\/inbox/);
  await expect(page.getByRole("heading", { name: "Inbox", level: 1 })).toBeVisible();
  // Inbox is the first entry of the navigation.
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link").first()).toHaveText(/^Inbox/);

  const contact = uniqueContact("+1415558");
  const name = `Dana ${contact.slice(-5)}`;
  await simulateInbound(page, contact, name, "Hi, is my order on its way?");

  // No reload: the live stream (polling without it). Unread, with the nav badge counting it.
  const row = item(page, name);
  await expect(row).toBeVisible();
  await expect(row).toContainText("Hi, is my order on its way?");
  await expect(row).toContainText("1 unread");
  await expect(page.getByTestId("unread-badge")).toBeVisible();

  // Keyboard: focus the conversation and open it with Enter.
  await row.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/[?&]c=conv_/);
  const thread = page.getByRole("log", { name: `Messages with ${name}` });
  const inbound = thread.getByTestId("thread-message").filter({ hasText: "Hi, is my order on its way?" });
  await expect(inbound).toHaveAttribute("data-direction", "inbound");
  await expect(thread.getByText("Today")).toBeVisible();
  await expect(page.getByTestId("window-state")).toContainText(/2[34] h \d+ min left/);
  // Opening marks it read.
  await expect(row).not.toContainText("unread");

  // Enter sends, Shift+Enter breaks the line.
  const reply = page.getByRole("textbox", { name: "Reply" });
  await reply.focus();
  await page.keyboard.type("It left the warehouse today.");
  await page.keyboard.press("Shift+Enter");
  await page.keyboard.type("Tracking follows.");
  await page.keyboard.press("Enter");
  await expect(reply).toHaveValue("");
  const outbound = thread.getByTestId("thread-message").filter({ hasText: "Tracking follows." });
  await expect(outbound).toHaveAttribute("data-direction", "outbound");
  await expect(outbound).toContainText("It left the warehouse today.\nTracking follows.");
  await expect(outbound).toContainText(DEMO_EMAIL);
  // The simulator's callbacks walk the ticks to read (SIMULATOR_READ_RATE=1).
  await expect(outbound).toHaveAttribute("data-status", "read", { timeout: 30_000 });
  await expect(outbound.getByTestId("ticks")).toContainText("Read");

  // A second inbound while the thread is open appears without a reload and is read at once.
  await simulateInbound(page, contact, name, "Thanks!");
  await expect(thread.getByTestId("thread-message").filter({ hasText: "Thanks!" })).toBeVisible();
  await expect(row).not.toContainText("unread");

  // Close, find it under the Closed filter, reopen.
  await page.getByRole("button", { name: "Close conversation" }).click();
  await expect(page.getByRole("button", { name: "Reopen conversation" })).toBeVisible();
  await page.getByRole("link", { name: "Closed", exact: true }).click();
  await expect(page).toHaveURL(/status=closed/);
  await expect(item(page, name)).toBeVisible();
  await page.getByRole("button", { name: "Reopen conversation" }).click();
  // Still listed under Closed while it is being read (docs/inbox.md); the Open filter has it.
  await expect(page.getByRole("button", { name: "Close conversation" })).toBeVisible();
  await expect(item(page, name)).toBeVisible();
  await page.getByRole("link", { name: "Open", exact: true }).click();
  // The item is listed under Closed too while it is read, so it is visible before the Open view
  // is: wait for the Open view itself. A search typed while that navigation is still pending
  // builds its URL from the Closed view's, and the Closed view has no item once it is reopened
  // (CI of 2026-11-30, on a loaded machine: no item for 15 s after the search).
  await expect(page).toHaveURL(/status=open/);
  await expect(page.getByRole("link", { name: "Open", exact: true })).toHaveAttribute("aria-current", "page");
  await expect(item(page, name)).toBeVisible();

  // Search is kept in the URL. By the whole number: a part of it may be in another test's
  // contacts' numbers (the search matches any part), and this test expects only its own.
  const digits = contact.slice(1);
  await page.getByLabel("Search by name or number").fill(digits);
  await expect(page).toHaveURL(new RegExp(`search=${digits}`));
  await expect(page.getByTestId("conversation-item")).toHaveCount(1);
  await expectAccessible(page);
  await saveScreenshot(page, "inbox-thread");
});

test("a list read that fails for a while (the server busy) comes back by itself, with no reload", async ({ page }) => {
  await login(page);
  // The first five reads of the list fail as a busy server answers: the first and its three
  // retries, then one poll of the failed read; the next one is let through.
  let refused = 0;
  await page.route(/\/api\/dashboard\/conversations\?/, async (route) => {
    if (route.request().method() !== "GET" || refused >= 5) return route.continue();
    refused += 1;
    await route.fulfill({
      status: 503,
      contentType: "application/json",
      headers: { "Retry-After": "1" },
      body: JSON.stringify({ error_code: "SERVICE_UNAVAILABLE", message: "The database is busy; retry." }),
    });
  });
  await page.goto("/inbox?status=open");
  await expect(page.getByText("Could not load conversations.")).toBeVisible({ timeout: 20_000 });
  // Polled while it fails (docs/inbox.md "When a read fails"), though no live notice comes.
  await expect(page.getByTestId("conversation-item").first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("Could not load conversations.")).toHaveCount(0);
  expect(refused).toBe(5);
});

test("a contact who never wrote gets the template picker instead of the text box", async ({ page }) => {
  await login(page);
  // A template from the composer starts the conversation; no inbound, so no window.
  await page.goto("/messages");
  const contact = uniqueContact("+1415559");
  // A controlled input: filled before hydration, React would reset it.
  await hydrated(page.getByLabel("Recipient (with + and country code)"));
  await page.getByLabel("Recipient (with + and country code)").fill(contact);
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_update (en, utility)" });
  await page.getByLabel("Body {{1}}").fill("Ana");
  await page.getByLabel("Body {{2}}").fill("A-1042");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Accepted:" })).toBeVisible();

  await page.goto(`/inbox?search=${contact.slice(-5)}`);
  await item(page, contact).click();
  await expect(page.getByTestId("window-state")).toContainText("not written");
  await expect(page.getByRole("textbox", { name: "Reply" })).toHaveCount(0);
  await expect(page.getByTestId("window-closed-notice")).toBeVisible();
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_update (en, utility)" });
  // The picker asks for the template's two values; without them the send is refused, with the reason.
  await page.getByRole("button", { name: "Send template" }).click();
  await expect(
    page.getByRole("status").filter({ hasText: "body parameter 1 ({{1}}) has no text value" }),
  ).toBeVisible();
  await page.getByLabel("Body {{1}}").fill("Robin");
  await page.getByLabel("Body {{2}}").fill("B-7");
  await expect(page.getByRole("figure", { name: "Message preview" })).toContainText(
    "Hi Robin, your order B-7 is on its way.",
  );
  await page.getByRole("button", { name: "Send template" }).click();
  const thread = page.getByRole("log");
  await expect(thread.getByTestId("thread-message")).toHaveCount(2);
  // Sent: the picker's values are cleared for the next template.
  await expect(page.getByLabel("Body {{1}}")).toHaveValue("");
  await expect(thread.getByTestId("thread-message").last()).toHaveAttribute("data-status", "read", {
    timeout: 30_000,
  });
  await expectAccessible(page);
});

test("at 390 px the inbox shows one pane at a time, never scrolls sideways, and passes axe", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page);
  const contact = uniqueContact("+1415557");
  const name = `Robin ${contact.slice(-5)} with a rather long display name for a small screen`;
  await simulateInbound(page, contact, name, `${"A long message without spaces ".repeat(3)}${"x".repeat(120)}`);
  await page.goto("/inbox");
  const noSideways = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
  await expect(item(page, contact.slice(-5))).toBeVisible();
  expect(await noSideways()).toBe(true);
  await expectAccessible(page);

  await item(page, contact.slice(-5)).click();
  await expect(page.getByRole("link", { name: "← All conversations" })).toBeVisible();
  await expect(page.getByLabel("Search by name or number")).toBeHidden();
  await expect(page.getByRole("textbox", { name: "Reply" })).toBeVisible();
  expect(await noSideways()).toBe(true);
  // The header gives the contact the pane's width, the actions wrap below: the name and number
  // once got about 30 px beside the buttons, a letter or two per line.
  const title = await page.locator("#thread-title").boundingBox();
  expect(title?.width ?? 0).toBeGreaterThan(300);
  const number = page.locator("header p").filter({ hasText: contact }).first();
  const numberBox = await number.boundingBox();
  expect(numberBox?.width ?? 0).toBeGreaterThan(300);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Dark mode" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expectAccessible(page);
  await saveScreenshot(page, "inbox-phone");
  await page.getByRole("button", { name: "Light mode" }).click();
  await page.getByRole("link", { name: "← All conversations" }).click();
  await expect(page.getByLabel("Search by name or number")).toBeVisible();
});

test("an opt-out blacklists the contact: the thread says so with the reply box disabled, an opt-in lifts it; the blacklist page removes and adds", async ({
  page,
}) => {
  await login(page);
  await page.goto("/inbox");
  const contact = uniqueContact("+1415556");
  const name = `Sam ${contact.slice(-5)}`;
  await simulateInbound(page, contact, name, "Hello");
  await simulateInbound(page, contact, name, "STOP");
  await item(page, name).click();
  const thread = page.getByRole("log", { name: `Messages with ${name}` });
  await expect(thread.getByTestId("thread-note")).toHaveCount(1);
  await expect(page.getByTestId("blacklisted-notice")).toBeVisible();
  await expect(page.getByRole("textbox", { name: "Reply" })).toBeDisabled();
  await expectAccessible(page);

  // START takes the opt-out back (a second note), STOP puts it on again; no reload.
  await simulateInbound(page, contact, name, "START");
  await expect(thread.getByTestId("thread-note")).toHaveCount(2);
  await expect(page.getByTestId("blacklisted-notice")).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Reply" })).toBeEnabled();
  await simulateInbound(page, contact, name, "stop");
  await expect(thread.getByTestId("thread-note")).toHaveCount(3);
  await expect(page.getByRole("textbox", { name: "Reply" })).toBeDisabled();

  await page.getByRole("link", { name: "removed from the blacklist" }).click();
  await expect(page).toHaveURL(/\/blacklist\?/);
  const row = page.getByTestId("blacklist-row").filter({ hasText: contact });
  await expect(row).toContainText("Opt-out keyword");
  await expectAccessible(page);
  await row.getByRole("button", { name: `Remove ${contact}` }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove", exact: true }).click();
  await expect(row).toHaveCount(0);

  await page.getByLabel("Phone number (with + and country code)").fill(contact);
  await page.getByLabel("Reason (optional)").fill("Asked by phone");
  await page.getByRole("button", { name: "Add to blacklist" }).click();
  await expect(page.getByTestId("blacklist-row").filter({ hasText: contact })).toContainText("Dashboard");
  await page.getByLabel("Phone number (with + and country code)").fill("not a number");
  await page.getByRole("button", { name: "Add to blacklist" }).click();
  await expect(page.getByText('"not a number" is not a phone number', { exact: false }).first()).toBeVisible();
  // A number typed without "+" is told what to type instead, never about "the +" it lacks.
  await page.getByLabel("Phone number (with + and country code)").fill("0099912345678");
  await page.getByRole("button", { name: "Add to blacklist" }).click();
  await expect(
    page
      .getByText('"0099912345678" does not start with a known country code after the 00: type + and the country code', {
        exact: false,
      })
      .first(),
  ).toBeVisible();
  await saveScreenshot(page, "blacklist");
});
