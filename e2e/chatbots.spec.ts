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
