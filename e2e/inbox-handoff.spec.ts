import { expect, type Page, test } from "@playwright/test";
import { contactWrites, DEMO_SENDER, hydrated, login } from "./helpers";

// The inbox flows of docs/inbox.md beyond reading and replying: a chatbot's hand-off waits for
// a person (badge, banner, filter) until a person replies, and ends with a close (the bot holds the
// reopened conversation until it hands off again); the conversation being read stays in
// the Unread list until the filter changes; "Mark as unread"; blacklist and unblock from the
// thread with the reason shown as given; a template sent into a closed conversation reopens it.

/** The demo's second sender carries the demo chatbot (lib/domains/demo/seed-chatbots.ts): "agent" hands off. */
const BOT_SENDER = { phoneNumber: "+15550100002", phoneNumberId: "109990000000002", wabaId: "209990000000001" };

let seq = 0;
// A valid number (+1 415 55x xxxx): blacklisting parses it as every write of a number does.
const uniqueContact = (prefix: string) => `${prefix}${String(Date.now() + seq++).slice(-4)}`;
const item = (page: Page, text: string) => page.getByTestId("conversation-item").filter({ hasText: text });

test("a chatbot hand-off waits for a person until a person replies", async ({ page }) => {
  await login(page);
  const contact = uniqueContact("+1415557");
  await contactWrites(page, contact, "agent", BOT_SENDER);

  await page.goto("/inbox?waiting=true");
  await expect(page.getByRole("link", { name: "Waiting for a person" })).toHaveAttribute("aria-current", "page");
  const row = item(page, contact);
  await expect(row).toBeVisible();
  await expect(row.getByTestId("waiting-badge")).toHaveText("Waiting");

  await row.click();
  await expect(page.getByTestId("handoff-notice")).toContainText("Waiting for a person");
  const reply = page.getByRole("textbox", { name: "Reply" });
  await reply.fill("Hi, Sam from the team here.");
  await reply.press("Enter");
  await expect(reply).toHaveValue("");
  await expect(page.getByTestId("handoff-notice")).toHaveCount(0);

  // Still listed while this view is open; gone from the filter once it is chosen again (after
  // the All view is shown: a view the list never rendered does not end the pin).
  await page.getByRole("link", { name: "All", exact: true }).click();
  await expect(page.getByRole("link", { name: "All", exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "Waiting for a person" }).click();
  await expect(page).toHaveURL(/waiting=true/);
  await expect(item(page, contact)).toHaveCount(0);
});

test("a hand-off closed without a reply ends: the bot answers the contact again, and its next hand-off waits anew", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await login(page);
  const contact = uniqueContact("+1415556");
  await contactWrites(page, contact, "agent", BOT_SENDER);
  await page.goto(`/inbox?search=${contact.slice(-5)}`);
  const row = item(page, contact);
  await expect(row.getByTestId("waiting-badge")).toHaveText("Waiting");
  await row.click();
  await expect(page.getByTestId("handoff-notice")).toContainText("Waiting for a person");
  await page.getByRole("button", { name: "Close conversation" }).click();
  await expect(page.getByRole("button", { name: "Reopen conversation" })).toBeVisible();

  // The contact writes again: the conversation is open, the bot answers, and nobody is waited for.
  await contactWrites(page, contact, "one more question", BOT_SENDER);
  const thread = page.getByRole("log");
  await expect(thread).toContainText("one more question");
  await expect(thread.getByText("Sorry, I did not get that.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Close conversation" })).toBeVisible();
  await expect(page.getByTestId("handoff-notice")).toHaveCount(0);
  await expect(row.getByTestId("waiting-badge")).toHaveCount(0);

  // Asking for a person again hands off anew: waiting again, without a reload.
  await contactWrites(page, contact, "agent", BOT_SENDER);
  await expect(page.getByTestId("handoff-notice")).toContainText("Waiting for a person");
  await expect(row.getByTestId("waiting-badge")).toHaveText("Waiting");
});

test("the conversation being read stays under Unread until the filter changes; mark as unread", async ({ page }) => {
  await login(page);
  const contact = uniqueContact("+1415556");
  await contactWrites(page, contact, "Is anyone there?", DEMO_SENDER);

  await page.goto(`/inbox?sender=${encodeURIComponent(DEMO_SENDER.phoneNumber)}&unread=true`);
  const row = item(page, contact);
  await expect(row).toContainText("1 unread");
  await row.click();
  await expect(page).toHaveURL(/[?&]c=conv_/);
  // Read now, and still in the Unread list while it is being read (the list polls every 3 s).
  await expect(row).not.toContainText("unread");
  await expect
    .poll(async () =>
      (await page.request.get(`/api/dashboard/conversations?unread=true&search=${contact.slice(1)}`)).json(),
    )
    .toMatchObject({ data: { conversations: [] } });
  await expect(row).toBeVisible();

  await page.getByRole("button", { name: "Mark as unread" }).click();
  await expect(page).not.toHaveURL(/[?&]c=conv_/);
  await expect(item(page, contact)).toContainText("1 unread");

  // Another filter, then Unread again: it is unread, so it is listed.
  await page.getByRole("link", { name: "All", exact: true }).click();
  await expect(page.getByRole("link", { name: "All", exact: true })).toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "Unread", exact: true }).click();
  await expect(item(page, contact)).toContainText("1 unread");
});

test("blacklist and unblock from the thread, the reason shown as it was given", async ({ page }) => {
  await login(page);
  const contact = uniqueContact("+1415554");
  await contactWrites(page, contact, "Stop writing to me", DEMO_SENDER);
  await page.goto(`/inbox?sender=${encodeURIComponent(DEMO_SENDER.phoneNumber)}`);
  await item(page, contact).click();

  await page.getByRole("button", { name: "Blacklist contact" }).click();
  const dialog = page.getByRole("dialog", { name: `Blacklist ${contact}?` });
  await dialog.getByLabel("Reason (optional, shown in the thread)").fill("Asked us by phone");
  await dialog.getByRole("button", { name: "Blacklist contact" }).click();

  const notice = page.getByTestId("blacklisted-notice");
  await expect(notice).toContainText("blacklisted from the dashboard on");
  await expect(notice).toContainText('"Asked us by phone"');
  // A manual block is not an opt-out.
  await expect(notice).not.toContainText("opted out");
  await expect(page.getByRole("textbox", { name: "Reply" })).toBeDisabled();

  await page.getByRole("button", { name: "Unblock contact" }).click();
  await expect(notice).toHaveCount(0);
  await expect(page.getByRole("textbox", { name: "Reply" })).toBeEnabled();
});

test("a template sent from the thread into a closed conversation reopens it", async ({ page }) => {
  test.setTimeout(60_000);
  await login(page);
  // A template from the composer starts the conversation; the contact never wrote, so the
  // thread offers the template picker.
  await page.goto("/messages");
  const contact = uniqueContact("+1415553");
  await hydrated(page.getByLabel("Recipient (with + and country code)"));
  await page.getByLabel("Recipient (with + and country code)").fill(contact);
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_update (en, utility)" });
  await page.getByLabel("Body {{1}}").fill("Ana");
  await page.getByLabel("Body {{2}}").fill("A-1");
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Accepted:" })).toBeVisible();

  await page.goto(`/inbox?search=${contact.slice(-5)}`);
  await item(page, contact).click();
  await page.getByRole("button", { name: "Close conversation" }).click();
  await expect(page.getByRole("button", { name: "Reopen conversation" })).toBeVisible();

  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_update (en, utility)" });
  await page.getByLabel("Body {{1}}").fill("Ana");
  await page.getByLabel("Body {{2}}").fill("A-2");
  await page.getByRole("button", { name: "Send template" }).click();
  await expect(page.getByRole("log").getByTestId("thread-message")).toHaveCount(2);
  // Open again: the thread offers to close it, and the Open filter lists it.
  await expect(page.getByRole("button", { name: "Close conversation" })).toBeVisible();
  await page.getByRole("link", { name: "Open", exact: true }).click();
  await expect(page).toHaveURL(/status=open/);
  await expect(item(page, contact)).toBeVisible();
});
