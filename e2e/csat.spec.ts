// CSAT (docs/reports.md "CSAT"): the owner switches the survey on, a contact writes, a member
// closes the conversation in the inbox, the survey's buttons go out, the simulated contact
// taps 😀 Happy (a signed interactive callback quoting the survey message, as the provider
// sends it), and the answer shows on the CSAT page and in the conversation's thread; axe at 390 and 1280 px in both themes.
// The survey is switched off again at the end: the demo's other tests close conversations too.
import { expect, type Page, test } from "@playwright/test";
import { envelopeFor } from "../lib/domains/provider/simulator-callbacks";
import { inboundReplyChange, inboundTextChange } from "../lib/domains/provider/simulator-inbound";
import { DEMO_SENDER, expectAccessible, hydrated, login, saveScreenshot, signForApp } from "./helpers";

async function postCallback(page: Page, body: string): Promise<void> {
  const res = await page.request.post("/api/provider/webhook", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(body) },
  });
  expect(res.status()).toBe(200);
}

type ThreadMessage = {
  direction: string;
  providerMessageId: string | null;
  interactive: { buttons?: { id: string; title: string }[] } | null;
};

async function setSurvey(page: Page, on: boolean): Promise<void> {
  await page.goto("/reports/csat");
  const box = page.getByRole("checkbox", { name: /Ask the contact for a rating/ });
  await hydrated(box);
  if ((await box.isChecked()) !== on) await box.click();
  await page.getByRole("button", { name: "Save" }).click();
  await expect(page.getByText("CSAT survey saved")).toBeVisible();
}

test("a member closes, the contact taps a face, the answer shows; axe at 390 and 1280 px in both themes", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await login(page);
  await setSurvey(page, true);
  try {
    const contact = `+1555${String(Date.now()).slice(-7)}`;
    const name = `Rae ${contact.slice(-4)}`;
    await postCallback(page, envelopeFor([inboundTextChange(DEMO_SENDER, { from: contact, text: "Help?", name })]));

    await page.goto("/inbox");
    const item = page.getByTestId("conversation-item").filter({ hasText: name });
    await item.click();
    await expect(page).toHaveURL(/[?&]c=conv_/);
    const uid = new URL(page.url()).searchParams.get("c") ?? "";
    const close = page.getByRole("button", { name: "Close conversation" });
    await hydrated(close);
    await close.click();
    await expect(page.getByRole("button", { name: "Reopen conversation" })).toBeVisible();

    // The survey worker sends the buttons through the normal pipeline; the conversation stays closed.
    let survey: ThreadMessage | undefined;
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/dashboard/conversations/${uid}`);
          const { messages } = (await res.json()).data as { messages: ThreadMessage[] };
          survey = messages.find((m) => m.direction === "outbound" && m.interactive?.buttons?.length === 3);
          return survey?.providerMessageId ?? null;
        },
        { timeout: 30_000 },
      )
      .not.toBeNull();
    const happy = survey?.interactive?.buttons?.find((b) => b.title.includes("Happy"));
    expect(happy?.id).toMatch(/^csat:csat_[0-9a-z]+:3$/);

    await postCallback(
      page,
      envelopeFor([
        inboundReplyChange(DEMO_SENDER, {
          from: contact,
          name,
          context: survey?.providerMessageId ?? "",
          reply: { type: "button_reply", id: happy?.id ?? "", title: happy?.title ?? "" },
        }),
      ]),
    );

    await page.goto("/reports/csat");
    await expect(page.getByRole("heading", { level: 1, name: "CSAT" })).toBeVisible();
    const row = page.getByTestId("csat-row").filter({ hasText: contact });
    await expect(async () => {
      await page.reload();
      await expect(row).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await expect(row.getByTestId("csat-score")).toHaveText("😀 Happy");
    // A tap is an answer, not a new request: the conversation is still closed.
    const after = await page.request.get(`/api/dashboard/conversations/${uid}`);
    expect(((await after.json()).data as { conversation: { status: string } }).conversation.status).toBe("CLOSED");
    // The thread shows the contact's answer.
    await page.goto(`/inbox?c=${uid}`);
    await expect(page.getByTestId("thread-csat-answer")).toHaveText("😀 Happy");
    await expectAccessible(page);
    await page.goto("/reports/csat");
    await saveScreenshot(page, "csat");

    for (const dark of [false, true]) {
      await page.evaluate((on) => document.documentElement.classList.toggle("dark", on), dark);
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await expect
          .poll(
            () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
            {
              message: `${width} px ${dark ? "dark" : "light"}: no sideways scroll`,
            },
          )
          .toBeLessThanOrEqual(0);
        await expectAccessible(page);
      }
    }
    await page.evaluate(() => document.documentElement.classList.remove("dark"));
    await page.setViewportSize({ width: 1280, height: 900 });
  } finally {
    await setSurvey(page, false);
  }
});
