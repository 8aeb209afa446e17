import { expect, type Page, test } from "@playwright/test";
import { accessibleAt, contactWrites, DEMO_EMAIL, hydrated, login } from "./helpers";

// A rule written in the Automations rule editor (docs/automation.md "Actions"): "a message
// arrives, its text contains <word> -> add the label <label>, assign to the demo's operator"
// (the label is created on the labels page first: a rule naming a label the account does not
// have is refused at save, shown on its action, as the test shows with a typo). A contact
// writes the word and the open inbox shows the label and the assignee on that conversation
// without a reload. The word and the label are this run's own, and the word leaves out
// "refund", so the demo's own "Refund routing" rule (which also assigns the demo operator)
// cannot be what labelled and assigned it. The editor is accessible at a phone's and a
// desktop's width in both themes. The rule is disabled at the end (the demo account's other
// tests share its inbox).

const suffix = String(Date.now()).slice(-6);
const word = `moneyback${suffix}`;
const labelName = `refund-${suffix}`;
const ruleName = `Money back ${suffix}`;
// A valid number (+1 415 557 xxxx), as the inbox spec uses.
const contact = `+141557${suffix.slice(-4)}2`;
const item = (page: Page) => page.getByTestId("conversation-item").filter({ hasText: contact.slice(-7) });

test("a rule written in the editor labels and assigns a contact's message, shown in the open inbox without a reload", async ({
  page,
}) => {
  await login(page);

  // The label the rule puts on.
  await page.goto("/inbox/labels");
  const form = page.getByRole("form", { name: "Create a label" });
  await hydrated(form.getByLabel("Name"));
  await form.getByLabel("Name").fill(labelName);
  await form.getByRole("button", { name: "Create label" }).click();
  await expect(page.getByTestId("label-row").filter({ hasText: labelName })).toBeVisible();

  // The editor: write the rule and read it back as a sentence.
  await page.goto("/automations");
  await page.getByRole("link", { name: "New rule" }).click();
  await expect(page.getByRole("heading", { name: "New rule", level: 1 })).toBeVisible();
  const nameInput = page.getByLabel("Name", { exact: true });
  await hydrated(nameInput);
  await page.getByRole("button", { name: "Add a condition" }).click();
  await nameInput.fill(ruleName);
  await expect(page.getByLabel("Trigger")).toHaveValue("message.inbound");
  await expect(page.getByLabel("Condition 1 field")).toHaveValue("message.text");
  await page.getByLabel("Condition 1 operator").selectOption("contains");
  await page.getByLabel("Condition 1 value").fill(word);
  await expect(page.getByLabel("Action 1", { exact: true })).toHaveValue("label");
  await page.getByLabel("Action 1 labels").fill(labelName);
  await page.getByRole("button", { name: "Add an action" }).click();
  await page.getByLabel("Action 2", { exact: true }).selectOption("assign");
  await page.getByLabel("Action 2 assignee email").fill(DEMO_EMAIL);
  const preview = page.getByTestId("rule-preview");
  await expect(preview).toContainText(word);
  await expect(preview).toContainText(labelName);
  await accessibleAt(page, [
    [1280, "light"],
    [1280, "dark"],
    [390, "dark"],
    [390, "light"],
  ]);
  await page.setViewportSize({ width: 1280, height: 900 });
  // A label the account does not have is refused at save, said on its action; nothing is saved.
  await page.getByLabel("Action 1 labels").fill(`${labelName}-typo`);
  await page.getByRole("button", { name: "Create rule" }).click();
  await expect(page.getByTestId("action").first().getByRole("alert")).toContainText(
    `no label named "${labelName}-typo"`,
  );
  await expect(page).toHaveURL(/\/automations\/new$/);
  await page.getByLabel("Action 1 labels").fill(labelName);
  await page.getByRole("button", { name: "Create rule" }).click();
  await expect(page).toHaveURL(/\/automations\/[^/]+$/);
  await expect(page).not.toHaveURL(/\/automations\/new$/);
  const ruleUrl = page.url();
  await expect(page.getByRole("heading", { name: ruleName, level: 1 })).toBeVisible();
  await expect(page.getByTestId("rule-enabled")).toHaveText("Enabled");

  try {
    // The inbox is open when the contact writes; the rule's work reaches the list item.
    await page.goto("/inbox");
    await expect(page.getByRole("list", { name: "Conversations" })).toBeVisible();
    await contactWrites(page, contact, `Can I get my money back? ${word}`);
    await expect(item(page).getByTestId("conversation-labels")).toContainText(labelName, { timeout: 15_000 });
    await expect(item(page).getByTestId("conversation-assignee")).toContainText("Demo Operator");
    // The contact's conversation opened from the list shows the same.
    await item(page).click();
    await expect(
      page.getByTestId("thread-labels").getByTestId("label-chip").filter({ hasText: labelName }),
    ).toBeVisible();
    await expect(page.getByTestId("assignee")).toContainText("Demo Operator");
  } finally {
    // Off again, so the demo account's other tests are not labelled or assigned by it.
    await page.goto(ruleUrl);
    await page.getByRole("button", { name: `Disable ${ruleName}` }).click();
    await expect(page.getByTestId("rule-enabled")).toHaveText("Disabled");
  }
});
