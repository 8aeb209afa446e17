// The shared inbox end to end (docs/inbox.md "The shared inbox"): the owner adds a saved reply
// and invites an agent limited to one sender (the link read with `mail:list`: the e2e app
// runs without SMTP_URL); the agent sees only that sender's conversations, assigns one to
// themself, writes an internal note, answers with the saved reply typed as `/shortcut`, and
// cannot open the tokens page; the owner removes the agent and the agent's next click lands
// on the login page. A new inbound message reaches the agent without a reload (the live stream,
// docs/inbox.md "Live updates").
import { execFileSync } from "node:child_process";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { contactWrites, DEMO_SENDER, expectAccessible, hydrated, login, saveScreenshot } from "./helpers";

const OTHER_SENDER = { phoneNumber: "+15550100002", phoneNumberId: "109990000000002", wabaId: "209990000000001" };
const stamp = String(Date.now()).slice(-6);
const agentEmail = `team-agent-${stamp}@example.test`;
const PASSWORD = "agent-password-123";
const shortcut = `thanks${stamp}`;
const snippet = `Thank you for writing, we are looking into it (${stamp}).`;

function invitationLink(to: string): string {
  const out = execFileSync("node", ["scripts/run.mjs", "cli", "mail:list", "--to", to, "--json"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "", LOG_LEVEL: "silent", NODE_ENV: "development" },
    encoding: "utf8",
  });
  const { mail } = JSON.parse(out) as { mail: { links: string[] }[] };
  const link = mail[0]?.links.find((l) => l.includes("/invite/"));
  if (!link) throw new Error(`no invitation link in ${out}`);
  return link;
}

async function joinAsAgent(browser: Browser, link: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  await hydrated(page.getByLabel("Your name (optional)"));
  await page.getByLabel("Your name (optional)").fill("Ada Agent");
  await page.getByLabel(/Choose a password/).fill(PASSWORD);
  await page.getByRole("button", { name: "Join" }).click();
  await expect(page).toHaveURL(/\/inbox/);
  return page;
}

test("an agent on one sender assigns, notes and answers with a saved reply; removal ends the session", async ({
  page,
  browser,
}) => {
  await login(page);
  const mine = `+1415558${stamp.slice(-4)}`;
  const theirs = `+1415559${stamp.slice(-4)}`;
  await contactWrites(page, mine, `Where is my parcel ${stamp}?`, DEMO_SENDER);
  await contactWrites(page, theirs, `Other sender ${stamp}`, OTHER_SENDER);

  // The owner adds a saved reply.
  await page.goto("/inbox");
  await page.getByRole("link", { name: "Saved replies and auto-assignment" }).click();
  await expect(page.getByRole("heading", { name: "Inbox settings", level: 1 })).toBeVisible();
  const form = page.getByRole("form", { name: "Add a saved reply" });
  await hydrated(form.getByLabel("Shortcut"));
  await form.getByLabel("Shortcut").fill(shortcut);
  await form.getByLabel("Text").fill(snippet);
  await form.getByRole("button", { name: "Add saved reply" }).click();
  await expect(page.getByTestId("saved-reply-row").filter({ hasText: `/${shortcut}` })).toBeVisible();
  await expectAccessible(page);

  // The owner invites an agent limited to the default sender.
  await page.goto("/members");
  await hydrated(page.getByLabel("Role", { exact: true }));
  await page.getByLabel("Email", { exact: true }).fill(agentEmail);
  await page.getByLabel("Role", { exact: true }).selectOption("agent");
  // The invitation form's box: a limited member's row lists the same sender.
  await page
    .getByRole("region", { name: "Invite a member" })
    .getByRole("checkbox", { name: DEMO_SENDER.phoneNumber })
    .check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByTestId("invitation-row").filter({ hasText: agentEmail })).toContainText("pending");
  const agent = await joinAsAgent(browser, invitationLink(agentEmail));

  // Only the agent's sender.
  const items = agent.getByTestId("conversation-item");
  await expect(items.filter({ hasText: mine })).toBeVisible();
  await expect(items.filter({ hasText: theirs })).toHaveCount(0);

  // A new inbound message on the agent's sender appears without a reload, over the live stream
  // (polling is off while it is open); one on the other sender never does.
  await expect(agent.locator("[data-live]")).toHaveAttribute("data-live", "on");
  const newcomer = `+1415553${stamp.slice(-4)}`;
  await contactWrites(page, newcomer, `Hello again ${stamp}`, DEMO_SENDER);
  await contactWrites(page, `+1415552${stamp.slice(-4)}`, `Elsewhere ${stamp}`, OTHER_SENDER);
  await expect(items.filter({ hasText: newcomer })).toBeVisible();
  await expect(items.filter({ hasText: `Elsewhere ${stamp}` })).toHaveCount(0);

  // Assign it to themself; "Mine" then lists it.
  await items.filter({ hasText: mine }).click();
  const assignment = agent.getByTestId("assignment");
  await hydrated(assignment.getByRole("button", { name: "Assign to me" }));
  await assignment.getByRole("button", { name: "Assign to me" }).click();
  await expect(agent.getByTestId("assignee")).toHaveText("Ada Agent");
  await agent.getByRole("link", { name: "Mine", exact: true }).click();
  await expect(agent).toHaveURL(/assignee=me/);
  await expect(items.filter({ hasText: mine })).toContainText("Ada Agent");

  // An internal note, shown apart from the messages with its author.
  const note = `Parcel stuck at the depot ${stamp}`;
  await agent.getByLabel("Note", { exact: true }).fill(note);
  await agent.getByRole("button", { name: "Add note" }).click();
  const shown = agent.getByTestId("internal-note").filter({ hasText: note });
  await expect(shown).toContainText(agentEmail);
  await expect(agent.getByTestId("thread-message").filter({ hasText: note })).toHaveCount(0);

  // The saved reply: typing /shortcut offers it, Enter inserts it, Enter sends it.
  const box = agent.locator("#reply-text");
  await box.pressSequentially(`/${shortcut.slice(0, 8)}`);
  const option = agent.getByRole("option", { name: new RegExp(`/${shortcut}`) });
  await expect(option).toBeVisible();
  await expectAccessible(agent);
  await box.press("Enter");
  await expect(box).toHaveValue(snippet);
  await box.press("Enter");
  await expect(agent.getByTestId("thread-message").filter({ hasText: snippet })).toHaveAttribute(
    "data-direction",
    "outbound",
  );
  await expect(box).toHaveValue("");
  // The note stayed internal: only the reply went out.
  await expect(agent.getByTestId("thread-message").filter({ hasText: note })).toHaveCount(0);
  await saveScreenshot(agent, "team-inbox-agent");

  // No tokens page for an agent.
  await agent.goto("/tokens");
  await expect(agent).toHaveURL(/\/no-access\?need=tokens/);
  await agent.goto("/inbox");

  // The owner sees the assignee, then removes the agent; the agent's next click: login.
  await page.goto(`/inbox?assignee=none`);
  await expect(page.getByTestId("conversation-item").filter({ hasText: mine })).toHaveCount(0);
  await page.goto("/members");
  const row = page.getByTestId("member-row").filter({ hasText: agentEmail });
  await row.getByRole("button", { name: "Remove", exact: true }).click();
  await page.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: agentEmail })).toHaveCount(0);
  await agent.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contacts" }).click();
  await expect(agent).toHaveURL(/\/login/);
});
