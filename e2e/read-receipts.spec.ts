import { expect, type Page, test } from "@playwright/test";
import { envelopeFor } from "../lib/domains/provider/simulator-callbacks";
import { inboundTextChange } from "../lib/domains/provider/simulator-inbound";
import { DEMO_SENDER, hydrated, login, signForApp } from "./helpers";

// Read receipts and typing (docs/inbox.md "Read receipts and typing"): typing in the open
// thread asks the server to show the contact the typing indicator (shown once, then throttled);
// the inbox settings' "Read receipts" turned off stops it (the answer says so) and on again.
// The setting is put back on at the end (the demo account's other tests share it).

const contact = `+1415558${String(Date.now()).slice(-4)}`;
const name = `Rae ${contact.slice(-5)}`;

async function contactWrites(page: Page, text: string): Promise<void> {
  const body = envelopeFor([inboundTextChange(DEMO_SENDER, { from: contact, text, name })]);
  const res = await page.request.post("/api/provider/webhook", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(body) },
  });
  expect(res.status()).toBe(200);
}

/** Types in the reply box; resolves with the typing route's answer. */
async function typeAndAnswer(page: Page, text: string): Promise<string> {
  const answered = page.waitForResponse((r) => r.url().endsWith("/typing") && r.request().method() === "POST");
  await page.getByRole("textbox", { name: "Reply" }).pressSequentially(text);
  const res = await answered;
  expect(res.status()).toBe(200);
  return ((await res.json()).data as { typing: string }).typing;
}

async function setReadReceipts(page: Page, on: boolean): Promise<void> {
  await page.goto("/inbox/settings");
  const form = page.getByRole("form", { name: "Read receipts" });
  await hydrated(form.getByRole("button", { name: "Save" }));
  await form.getByRole("checkbox", { name: "Send read receipts and typing indicators" }).setChecked(on);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("Read receipts saved")).toBeVisible();
  await page.reload();
  await expect(
    page.getByRole("form", { name: "Read receipts" }).getByRole("checkbox", { name: /Send read receipts/ }),
  ).toBeChecked({ checked: on });
}

test("typing shows the contact the typing indicator; read receipts off stops it", async ({ page }) => {
  await login(page);
  await contactWrites(page, "Is my parcel on its way?");
  const openThread = async () => {
    await page.goto("/inbox");
    await page.getByTestId("conversation-item").filter({ hasText: name }).click();
    await hydrated(page.getByTestId("thread-message").filter({ hasText: "Is my parcel on its way?" }));
  };
  await openThread();
  expect(await typeAndAnswer(page, "Yes")).toBe("shown");

  try {
    await setReadReceipts(page, false);
    await contactWrites(page, "Hello?");
    await openThread();
    expect(await typeAndAnswer(page, "On its way")).toBe("receipts_off");
  } finally {
    await setReadReceipts(page, true);
  }
});
