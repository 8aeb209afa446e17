import { expect, type Page, test } from "@playwright/test";
import { accessibleAt, contactWrites, login, saveScreenshot } from "./helpers";

// Labels in the inbox (docs/automation.md "Labels"): the labels page creates one, the thread
// puts it on, the list item shows it and the list filters by it; accessible at a phone's and a
// desktop's width in both themes.

const suffix = String(Date.now()).slice(-6);
// Valid numbers (+1 415 55x xxxx), as the inbox spec uses.
const contact = (n: number) => `+141555${n}${suffix.slice(-4)}`;
const item = (page: Page, text: string) => page.getByTestId("conversation-item").filter({ hasText: text });

type Theme = "light" | "dark";
const EVERYWHERE: [number, Theme][] = [
  [1280, "light"],
  [1280, "dark"],
  [390, "dark"],
  [390, "light"],
];

test("a label created on the labels page is put on from the thread, shown on the list item, and filters the list", async ({
  page,
}) => {
  const name = `vip-${suffix}`;
  const labelled = contact(6);
  const other = contact(5);
  await login(page);
  await contactWrites(page, labelled, "I pay yearly");
  await contactWrites(page, other, "Just looking");

  // The labels page: create it.
  await page.goto("/inbox");
  await page.getByRole("link", { name: "Labels", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Labels", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Create a label" });
  await form.getByLabel("Name").fill(name);
  await form.getByLabel("Colour").selectOption("purple");
  await form.getByLabel("Description").fill("Yearly plan");
  await form.getByRole("button", { name: "Create label" }).click();
  await expect(page.getByTestId("label-row").filter({ hasText: name })).toContainText("Yearly plan");
  // The inbox below is checked at both widths in both themes; this page at each width once.
  await accessibleAt(page, [
    [1280, "dark"],
    [390, "light"],
  ]);

  // The thread: add it; the chip shows there and on the list item, without a reload.
  await page.goto("/inbox");
  await item(page, labelled.slice(-7)).click();
  const labels = page.getByTestId("thread-labels");
  await labels.getByLabel("Add a label").selectOption(name);
  await expect(labels.getByTestId("label-chip").filter({ hasText: name })).toBeVisible();
  await expect(item(page, labelled.slice(-7)).getByTestId("conversation-labels")).toContainText(name);
  await expect(item(page, other.slice(-7)).getByTestId("conversation-labels")).toHaveCount(0);

  // The filter: only the labelled conversation.
  await page.getByLabel("Label", { exact: true }).selectOption(name);
  await expect(page).toHaveURL(new RegExp(`[?&]label=${name}`));
  await expect(item(page, other.slice(-7))).toHaveCount(0);
  await expect(page.getByTestId("conversation-item")).toHaveCount(1);
  await expect(item(page, labelled.slice(-7))).toBeVisible();
  await accessibleAt(page, EVERYWHERE);
  await saveScreenshot(page, "inbox-labels");

  // Taken off from the thread: the list item loses it.
  await page.getByRole("button", { name: `Remove label ${name}` }).click();
  await expect(labels.getByTestId("label-chip")).toHaveCount(0);
});
