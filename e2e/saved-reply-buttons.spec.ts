// A saved reply with reply buttons (docs/inbox.md "Saved replies"): the owner adds one on the
// inbox settings page (a button without its reply id is refused, naming the button), inserts
// it in the reply box with `/shortcut` (its buttons shown under the text), sends it as a
// buttons message, and the contact's tap on one (a signed interactive callback quoting it, as
// the provider sends it) shows in the thread without a reload, the sent buttons greyed and the
// chosen one marked; axe on both pages, the answered thread at a phone's and a desktop's width
// in both themes.
import { expect, test } from "@playwright/test";
import { envelopeFor } from "../lib/domains/provider/simulator-callbacks";
import { inboundReplyChange } from "../lib/domains/provider/simulator-inbound";
import {
  accessibleAt,
  contactWrites,
  DEMO_SENDER,
  expectAccessible,
  hydrated,
  login,
  saveScreenshot,
  signForApp,
} from "./helpers";

const stamp = String(Date.now()).slice(-6);
const shortcut = `menu${stamp}`;
const body = `How can we help you today? (${stamp})`;

type ThreadMessage = {
  direction: string;
  providerMessageId: string | null;
  interactive: { type: string; buttons?: { id: string; title: string }[] } | null;
};

test("a saved reply with buttons goes out as a buttons message and the contact's tap shows in the thread", async ({
  page,
}) => {
  await login(page);
  const contact = `+1415551${stamp.slice(-4)}`;
  await contactWrites(page, contact, `Hi, I have a question ${stamp}`, DEMO_SENDER);

  // The owner adds the saved reply with two buttons; a third without its reply id is refused.
  await page.goto("/inbox/settings");
  const form = page.getByRole("form", { name: "Add a saved reply" });
  await hydrated(form.getByLabel("Shortcut"));
  await form.getByLabel("Shortcut").fill(shortcut);
  await form.getByLabel("Text").fill(body);
  await form.getByLabel("Button 1 title").fill("Track my order");
  await form.getByLabel("Button 1 reply id").fill("track");
  await form.getByLabel("Button 2 title").fill("Talk to a person");
  await form.getByLabel("Button 2 reply id").fill("agent");
  await form.getByLabel("Button 3 title").fill("Returns");
  await form.getByRole("button", { name: "Add saved reply" }).click();
  await expect(form.getByText("Button 3: a reply id is 1 to 256 characters")).toBeVisible();
  await form.getByLabel("Button 3 title").fill("");
  await form.getByRole("button", { name: "Add saved reply" }).click();
  const row = page.getByTestId("saved-reply-row").filter({ hasText: `/${shortcut}` });
  await expect(row.getByRole("list", { name: `Buttons of /${shortcut}` })).toContainText("Talk to a person");
  await expectAccessible(page);

  // Inserted with /shortcut: the text and, under it, the buttons; Enter sends them.
  await page.goto("/inbox");
  await page.getByTestId("conversation-item").filter({ hasText: contact }).click();
  await expect(page).toHaveURL(/[?&]c=conv_/);
  const uid = new URL(page.url()).searchParams.get("c") ?? "";
  const box = page.locator("#reply-text");
  await hydrated(box);
  await box.pressSequentially(`/${shortcut}`);
  await expect(page.getByRole("option", { name: new RegExp(`/${shortcut}`) })).toContainText("2 buttons");
  await box.press("Enter");
  await expect(box).toHaveValue(body);
  const chips = page.getByTestId("reply-buttons");
  await expect(chips.getByRole("list", { name: "Reply buttons" })).toHaveText(/Track my order\s*Talk to a person/);
  await expect(page.getByRole("button", { name: "Send with buttons" })).toBeEnabled();
  await expectAccessible(page);
  await box.press("Enter");
  const ours = page.locator('[data-testid="thread-message"][data-direction="outbound"]').filter({ hasText: body });
  await expect(ours).toHaveCount(1);
  // The thread shows the buttons it carried, not yet answered.
  await expect(ours.getByTestId("sent-interactive")).toHaveAttribute("data-answered", "false");
  await expect(ours.getByTestId("sent-interactive")).toHaveText(/Track my order\s*Talk to a person/);
  await expect(chips).toHaveCount(0);
  await expect(box).toHaveValue("");

  // It went out as buttons; once the provider accepted it, the contact taps one.
  const sent = async () => {
    const answer = await page.request.get(`/api/dashboard/conversations/${uid}`);
    const { messages } = (await answer.json()).data as { messages: ThreadMessage[] };
    return messages.find((m) => m.direction === "outbound" && m.interactive?.type === "buttons");
  };
  await expect.poll(async () => (await sent())?.providerMessageId ?? "").toMatch(/^wamid\./);
  const stored = await sent();
  expect(stored?.interactive?.buttons).toEqual([
    { id: "track", title: "Track my order" },
    { id: "agent", title: "Talk to a person" },
  ]);
  const tap = envelopeFor([
    inboundReplyChange(DEMO_SENDER, {
      from: contact,
      context: stored?.providerMessageId ?? "",
      reply: { type: "button_reply", id: "agent", title: "Talk to a person" },
    }),
  ]);
  const res = await page.request.post("/api/provider/webhook", {
    data: tap,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(tap) },
  });
  expect(res.status()).toBe(200);
  const choice = page
    .locator('[data-testid="thread-message"][data-direction="inbound"]')
    .filter({ hasText: "Talk to a person" });
  await expect(choice).toHaveCount(1);
  await expect(choice.getByTestId("quoted-message")).toContainText(body);
  // The buttons are greyed, the chosen one marked.
  await expect(ours.getByTestId("sent-interactive")).toHaveAttribute("data-answered", "true");
  await expect(ours.locator('[data-chosen="true"]')).toHaveText(/Talk to a person/);
  await saveScreenshot(page, "saved-reply-buttons");
  // The thread with the greyed buttons, the choice and its quote, at a phone's and a desktop's width in both themes.
  await accessibleAt(page, [
    [1280, "light"],
    [1280, "dark"],
    [390, "dark"],
    [390, "light"],
  ]);
  await expect(ours.locator('[data-chosen="true"]')).toHaveText(/Talk to a person/);
});
