import { expect, type Page, test } from "@playwright/test";
import { envelopeFor } from "../lib/domains/provider/simulator-callbacks";
import { inboundTextChange } from "../lib/domains/provider/simulator-inbound";
import { accessibleAt, DEMO_SENDER, login, saveScreenshot, signForApp } from "./helpers";

// SLA policies (docs/reports.md "SLA policies"): a policy created on the settings page with a
// 1-minute first response; a contact writes (its message stamped 40 s ago by the provider, so
// the due time comes in ~20 s instead of a minute: the due time counts from the provider's
// time); the open inbox shows the due time amber, then red without a reload, and the SLA
// worker's breach reaches the list; "Due soonest" puts it first. Accessible at a phone's and
// a desktop's width in both themes. The policy is deleted at the end (the demo account's
// other tests share its inbox).

const suffix = String(Date.now()).slice(-6);
const contact = `+141556${suffix.slice(-4)}1`;
const item = (page: Page) => page.getByTestId("conversation-item").filter({ hasText: contact.slice(-7) });

/** A contact's text whose provider timestamp is `ago` ms in the past. */
async function contactWroteAgo(page: Page, ago: number): Promise<void> {
  const body = envelopeFor([
    inboundTextChange(DEMO_SENDER, { from: contact, text: "Is anyone there?", at: new Date(Date.now() - ago) }),
  ]);
  const response = await page.request.post("/api/provider/webhook", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(body) },
  });
  expect(response.status()).toBe(200);
}

test("a 1-minute first response: the inbox turns the conversation amber, then red without a reload", async ({
  page,
}) => {
  const name = `Fast ${suffix}`;
  await login(page);

  // The settings page: create the policy.
  await page.goto("/automations");
  await page.getByRole("link", { name: "SLA policies" }).click();
  await expect(page.getByRole("heading", { name: "SLA policies", level: 1 })).toBeVisible();
  // The form's refusals speak of its own fields, never the API's paths; nothing is created.
  const create = page.getByRole("button", { name: "Create policy" });
  const form = page.locator("form").filter({ has: create });
  await page.getByLabel("Name").fill(name);
  await page.getByLabel("First response (minutes)").fill("");
  await create.click();
  await expect(form).toContainText("Set at least one target: first response, next response or resolution.");
  await page.getByLabel("First response (minutes)").fill("0");
  await create.click();
  await expect(form).toContainText("First response (minutes) must be at least 1");
  await expect(form).not.toContainText("policy.");
  await page.getByLabel("First response (minutes)").fill("1");
  await page.getByLabel("Labels (comma-separated; empty: every conversation)").fill(`no-such-label-${suffix}`);
  await create.click();
  await expect(form).toContainText(`no label named "no-such-label-${suffix}" in this account`);
  await expect(page.getByTestId("sla-policy").filter({ hasText: name })).toHaveCount(0);
  await page.getByLabel("Labels (comma-separated; empty: every conversation)").fill("");
  await create.click();
  await expect(page.getByTestId("sla-policy").filter({ hasText: name })).toContainText("First response 1 min");
  // A second policy of the same name (another case) is refused.
  await page.getByLabel("Name").fill(name.toUpperCase());
  await create.click();
  await expect(form).toContainText(`an SLA policy named "${name.toUpperCase()}" already exists`);
  await expect(page.getByTestId("sla-policy").filter({ hasText: name })).toHaveCount(1);
  await accessibleAt(page, [
    [1280, "dark"],
    [390, "light"],
  ]);

  // The inbox is open when the contact writes.
  await page.goto("/inbox");
  await expect(page.getByRole("list", { name: "Conversations" })).toBeVisible();
  await contactWroteAgo(page, 40_000);
  const badge = item(page).getByTestId("sla-badge");
  await expect(badge).toHaveAttribute("data-state", "soon", { timeout: 15_000 });
  await expect(badge).toContainText("Due");
  // Red once the due time passes, and the breach the SLA worker records reaches the list.
  await expect(badge).toHaveAttribute("data-state", "breached", { timeout: 45_000 });
  await expect(badge).toHaveText("SLA missed");
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/dashboard/conversations?search=${contact.replace(/\D/g, "")}`);
        const { conversations } = (await res.json()).data as {
          conversations: { sla: { breaches: string[] } | null }[];
        };
        return conversations[0]?.sla?.breaches ?? [];
      },
      { timeout: 20_000 },
    )
    .toEqual(["first_response"]);

  // Due soonest. A new policy reaches every open conversation holding none (docs/reports.md "When a
  // policy changes"), so the demo's other waiting conversations have due times too, some earlier
  // than this one's: the list is in order of each one's soonest due time, those without one last,
  // and the page shows the same first conversation.
  await page.getByRole("link", { name: "Due soonest" }).click();
  await expect(page).toHaveURL(/[?&]sort=due/);
  type Listed = {
    contactPhoneNumber: string;
    sla: { firstResponseDueAt: string | null; nextResponseDueAt: string | null; resolutionDueAt: string | null } | null;
  };
  const soonest = (c: Listed) => {
    const dues = [c.sla?.firstResponseDueAt, c.sla?.nextResponseDueAt, c.sla?.resolutionDueAt].filter(
      (d): d is string => typeof d === "string",
    );
    return dues.length === 0 ? Number.POSITIVE_INFINITY : Math.min(...dues.map((d) => Date.parse(d)));
  };
  const sorted = (await (await page.request.get("/api/dashboard/conversations?sort=due")).json()).data as {
    conversations: Listed[];
  };
  const order = sorted.conversations.map(soonest);
  expect(order).toEqual([...order].sort((x, y) => x - y));
  const found = (
    await (await page.request.get(`/api/dashboard/conversations?sort=due&search=${contact.replace(/\D/g, "")}`)).json()
  ).data as { conversations: Listed[] };
  expect(found.conversations.map(soonest)[0]).toBeLessThan(Number.POSITIVE_INFINITY);
  await expect(page.getByTestId("conversation-item").first()).toContainText(
    (sorted.conversations[0]?.contactPhoneNumber ?? "").slice(-7),
  );
  await accessibleAt(page, [
    [1280, "light"],
    [1280, "dark"],
    [390, "dark"],
    [390, "light"],
  ]);
  await saveScreenshot(page, "inbox-sla");

  // Deleted: the conversation's SLA goes with it.
  await page.goto("/automations/sla");
  await page.getByRole("button", { name: `Delete ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Delete the SLA policy ${name}?` });
  await dialog.getByRole("button", { name: "Delete" }).click();
  await expect(page.getByTestId("sla-policy").filter({ hasText: name })).toHaveCount(0);
});
