import { expect, test } from "@playwright/test";
import { contactWrites, expectAccessible, login, saveScreenshot } from "./helpers";

// The demo's second sender has the demo's ACTIVE bot, and the default sender's inbound must
// stay free of automatic replies (other specs write to it): the new bot goes on the third.
const SENDER = "+15550100003";
const BOT_SENDER = { phoneNumber: "+15550100002", phoneNumberId: "109990000000002", wabaId: "209990000000001" };

test("create a chatbot in the editor, test it in the console, activate it", async ({ page }) => {
  await login(page);
  await page.goto(`/chatbots?sender=${encodeURIComponent(SENDER)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Chatbots" })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "New chatbot" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "New chatbot" })).toBeVisible();

  const name = `E2E bot ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Add rule" }).click();
  await page.getByRole("button", { name: "Add rule" }).click();
  const rules = page.getByTestId("rule");
  await expect(rules).toHaveCount(2);
  await rules.nth(0).getByLabel("Value").fill("price");
  await rules.nth(0).getByLabel("Reply text").fill("Plans start at $9 a month");
  await rules.nth(1).getByLabel("Match").selectOption("contains");
  await rules.nth(1).getByLabel("Value").fill("help");
  await rules.nth(1).getByLabel("Reply text").fill("A person will answer shortly");
  await rules.nth(1).getByLabel("Hand off to a person", { exact: false }).check();
  // The hand-off rule goes first.
  await rules.nth(1).getByRole("button", { name: "Move up" }).click();
  await expect(rules.nth(0).getByLabel("Value")).toHaveValue("help");
  await page.getByLabel("Answer messages no rule matches").check();
  await page.getByLabel("Fallback reply text").fill("Type price, or help for a person");

  // A mistake is caught by the schema and named at its field, before anything is sent.
  await page.getByLabel("Outside these hours, send the away reply instead").check();
  await page.getByLabel("Time zone").fill("Mars/Olympus");
  await page.getByRole("button", { name: "Create chatbot" }).click();
  await expect(page.getByText('unknown time zone "Mars/Olympus"', { exact: false }).first()).toBeVisible();
  await page.getByLabel("Outside these hours, send the away reply instead").uncheck();
  await expectAccessible(page);
  await page.getByRole("button", { name: "Create chatbot" }).click();

  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await expect(page.getByTestId("chatbot-status")).toHaveText("Status: INACTIVE");

  await page.getByLabel("A customer writes").fill("  PRICE ");
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await expect(page.getByTestId("test-matched")).toHaveText("Rule 2");
  await expect(page.getByTestId("test-reply")).toHaveText("Plans start at $9 a month");
  await page.getByLabel("A customer writes").fill("I need help please");
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await expect(page.getByTestId("test-matched")).toHaveText("Rule 1");
  await expect(page.getByTestId("test-result")).toContainText("Yes: a person takes over");
  await page.getByLabel("A customer writes").fill("hello");
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await expect(page.getByTestId("test-matched")).toHaveText("Fallback");
  await expect(page.getByTestId("test-reply")).toHaveText("Type price, or help for a person");

  await page.getByRole("button", { name: "Activate" }).click();
  await expect(page.getByTestId("chatbot-status")).toHaveText("Status: ACTIVE");
  await expectAccessible(page);
  await saveScreenshot(page, "chatbot-editor");

  await page.getByRole("link", { name: "← All chatbots" }).click();
  await expect(page.getByTestId("chatbot-row").filter({ hasText: name })).toContainText("ACTIVE");
  await saveScreenshot(page, "chatbots-list");
});

test("a regex rule answers in the test console (decided in the rule worker pool of Next's server)", async ({
  page,
}) => {
  await login(page);
  await page.goto(`/chatbots/new?sender=${encodeURIComponent(SENDER)}`);
  await expect(page.getByRole("heading", { level: 1, name: "New chatbot" })).toBeVisible();
  const name = `E2E regex bot ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Add rule" }).click();
  const rule = page.getByTestId("rule").nth(0);
  await rule.getByLabel("Match").selectOption("regex");
  await rule.getByLabel("Value").fill("order\\s*#?\\d+");
  await rule.getByLabel("Reply text").fill("Your order is on its way");
  await page.getByRole("button", { name: "Create chatbot" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
  await page.getByLabel("A customer writes").fill("where is order #42?");
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await expect(page.getByTestId("test-matched")).toHaveText("Rule 1");
  await expect(page.getByTestId("test-reply")).toHaveText("Your order is on its way");
});

test("a buttons reply built with its live preview, and a reply_id rule that branches on the tap", async ({ page }) => {
  await login(page);
  await page.goto(`/chatbots/new?sender=${encodeURIComponent(SENDER)}`);
  await expect(page.getByRole("heading", { level: 1, name: "New chatbot" })).toBeVisible();
  const name = `E2E menu bot ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Add rule" }).click();
  await page.getByRole("button", { name: "Add rule" }).click();
  const rules = page.getByTestId("rule");
  const menu = rules.nth(0);
  await menu.getByLabel("Value").fill("menu");
  await menu.getByLabel("Buttons", { exact: true }).check();
  await menu.getByLabel("Message").fill("How can we help?");
  await menu.getByLabel("Button 1 title").fill("Track my order");
  await menu.getByLabel("Button 1 reply id").fill("track");
  await menu.getByRole("button", { name: "Add button" }).click();
  await menu.getByLabel("Button 2 title").fill("Talk to a person, right now");
  await menu.getByLabel("Button 2 reply id").fill("agent");
  // The preview follows the typing.
  const preview = menu.getByTestId("buttons-preview");
  await expect(preview).toContainText("How can we help?");
  await expect(preview).toContainText("Track my order");
  await expect(preview).toContainText("Talk to a person, right now");
  const tap = rules.nth(1);
  await tap.getByLabel("Match").selectOption("reply_id");
  await tap.getByLabel("Value").fill("track");
  await tap.getByLabel("Reply text").fill("Your order ships today");
  await expectAccessible(page);
  // A title over 20 characters is named at its field before anything is sent.
  await page.getByRole("button", { name: "Create chatbot" }).click();
  await expect(menu.getByText("<=20 characters", { exact: false })).toBeVisible();
  await menu.getByLabel("Button 2 title").fill("Talk to a person");
  await page.getByRole("button", { name: "Create chatbot" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  await page.getByLabel("A customer writes").fill("menu");
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await expect(page.getByTestId("test-matched")).toHaveText("Rule 1");
  await expect(page.getByTestId("test-reply")).toHaveText("How can we help? [Track my order] [Talk to a person]");
  // The tap's title alone does not fire the reply_id rule; its id does.
  await page.getByLabel("A customer writes").fill("track");
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await expect(page.getByTestId("test-matched")).toHaveText("No rule");
  await page.getByLabel("A customer writes").fill("Track my order");
  await page.getByLabel("Tapped reply id (optional)").fill("track");
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await expect(page.getByTestId("test-matched")).toHaveText("Rule 2");
  await expect(page.getByTestId("test-reply")).toHaveText("Your order ships today");
  // Saved and read back: the buttons are in the editor as built.
  await page.reload();
  await expect(page.getByTestId("rule").nth(0).getByLabel("Button 2 reply id")).toHaveValue("agent");
  await expectAccessible(page);
});

test("a list reply and a link reply built with their live previews, saved and read back", async ({ page }) => {
  await login(page);
  await page.goto(`/chatbots/new?sender=${encodeURIComponent(SENDER)}`);
  await expect(page.getByRole("heading", { level: 1, name: "New chatbot" })).toBeVisible();
  const name = `E2E list bot ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByRole("button", { name: "Add rule" }).click();
  await page.getByRole("button", { name: "Add rule" }).click();
  const rules = page.getByTestId("rule");
  const shop = rules.nth(0);
  await shop.getByLabel("Value").fill("shop");
  await shop.getByLabel("List", { exact: true }).check();
  await shop.getByLabel("Message").fill("What are you looking for?");
  await shop.getByLabel("List button").fill("Browse");
  await shop.getByLabel("Row 1 title").fill("Trainers");
  await shop.getByLabel("Row 1 reply id").fill("trainers");
  await shop.getByLabel("Row 1 description (optional)").fill("Running and walking");
  await shop.getByRole("button", { name: "Add row" }).click();
  await shop.getByLabel("Row 2 title").fill("Boots");
  await shop.getByLabel("Row 2 reply id").fill("boots");
  // The preview follows the typing: the message, the list's button and the open list.
  const list = shop.getByTestId("list-preview");
  await expect(list).toContainText("What are you looking for?");
  await expect(list).toContainText("Browse");
  await expect(list).toContainText("Running and walking");
  await expect(list).toContainText("Boots");
  const link = rules.nth(1);
  await link.getByLabel("Value").fill("track");
  await link.getByLabel("Link button", { exact: true }).check();
  await link.getByLabel("Message").fill("Follow your parcel here");
  await link.getByLabel("Link button text").fill("Track it");
  await link.getByLabel("Link (https)").fill("http://example.com/track");
  await expect(link.getByTestId("cta-preview")).toContainText("Track it");
  await expectAccessible(page);
  // An http link is named at its field before anything is sent.
  await page.getByRole("button", { name: "Create chatbot" }).click();
  await expect(link.getByText("must be an https URL")).toBeVisible();
  await link.getByLabel("Link (https)").fill("https://example.com/track");
  await page.getByRole("button", { name: "Create chatbot" }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  await page.getByLabel("A customer writes").fill("shop");
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await expect(page.getByTestId("test-reply")).toHaveText("What are you looking for? [Browse: Trainers, Boots]");
  // Saved and read back: the list and the link are in the editor as built.
  await page.reload();
  await expect(page.getByTestId("rule").nth(0).getByLabel("Row 2 reply id")).toHaveValue("boots");
  await expect(page.getByTestId("rule").nth(1).getByLabel("Link (https)")).toHaveValue("https://example.com/track");
  await expectAccessible(page);
});

test("the demo bot answers an inbound message; the inbox thread shows the reply as the bot's", async ({ page }) => {
  await login(page);
  const contact = `+1415557${String(Date.now()).slice(-4)}`;
  await contactWrites(page, contact, "hours", BOT_SENDER);
  const sender = encodeURIComponent(BOT_SENDER.phoneNumber);
  await page.goto(`/messages?sender=${sender}`);
  const row = page.getByTestId("message-row").filter({ hasText: contact });
  await expect(row).toHaveCount(1, { timeout: 20_000 });
  await expect(row).toContainText("chatbot");

  await page.goto(`/inbox?sender=${sender}`);
  await page.getByTestId("conversation-item").filter({ hasText: contact }).click();
  const bubbles = page.getByTestId("thread-message");
  await expect(bubbles.filter({ hasText: "hours" }).first()).toHaveAttribute("data-direction", "inbound");
  const reply = bubbles.filter({ hasText: "Chatbot Acme front desk" });
  await expect(reply).toHaveCount(1);
  await expect(reply).toHaveAttribute("data-direction", "outbound");
  await expect(reply).toContainText("We are open Monday to Friday");
  await expectAccessible(page);
  await saveScreenshot(page, "chatbot-reply-in-inbox");
});
