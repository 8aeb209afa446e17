// Members end to end (docs/members.md): the owner invites an agent limited to one sender;
// the agent opens the emailed link (read with `mail:list`: the e2e app runs without
// SMTP_URL, so emails are kept in the outbox), joins, sees only that sender's
// conversations, cannot open the tokens page nor call its server action; the owner removes
// the agent, and the agent's next click lands on the login page.
import { execFileSync } from "node:child_process";
import { type Browser, expect, type Page, test } from "@playwright/test";
import { contactWrites, DEMO_SENDER, expectAccessible, hydrated, login, saveScreenshot } from "./helpers";

const OTHER_SENDER = { phoneNumber: "+15550100002", phoneNumberId: "109990000000002", wabaId: "209990000000001" };
const stamp = String(Date.now()).slice(-6);
const agentEmail = `agent-${stamp}@example.test`;
const PASSWORD = "agent-password-123";

/** The operator CLI against the app's data folder, as `npm run -s cli -- mail:list` would run. */
function invitationLink(to: string): string {
  const out = execFileSync("node", ["scripts/run.mjs", "cli", "mail:list", "--to", to, "--json"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "", LOG_LEVEL: "silent", NODE_ENV: "development" },
    encoding: "utf8",
  });
  const { mail } = JSON.parse(out) as { mail: { subject: string; links: string[] }[] };
  const link = mail[0]?.links.find((l) => l.includes("/invite/"));
  if (!link) throw new Error(`no invitation link in ${out}`);
  return link;
}

/** The action id and body the owner's own "Generate token" sent (to replay it as others). */
async function captureCreateToken(page: Page) {
  await page.goto("/tokens");
  await page.getByLabel("Name").fill(`owner-${stamp}`);
  const [request] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && Boolean(r.headers()["next-action"])),
    page.getByRole("button", { name: "Generate token" }).click(),
  ]);
  await expect(page.getByTestId("new-token")).toBeVisible();
  return { id: request.headers()["next-action"] ?? "", body: request.postData() ?? "" };
}

async function replayCreateToken(page: Page, action: { id: string; body: string }, name: string) {
  const origin = new URL(page.url()).origin;
  return page.request.post("/tokens", {
    headers: {
      "Next-Action": action.id,
      "Content-Type": "text/plain;charset=UTF-8",
      Accept: "text/x-component",
      Origin: origin,
    },
    data: action.body.replace(`owner-${stamp}`, name),
    maxRedirects: 0,
  });
}

async function agentPage(browser: Browser, link: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole("heading", { name: /^Join / })).toBeVisible();
  await expect(page.getByText("You are invited as agent")).toBeVisible();
  await expectAccessible(page);
  await hydrated(page.getByLabel("Your name (optional)"));
  await page.getByLabel("Your name (optional)").fill("Ada Agent");
  await page.getByLabel(/Choose a password/).fill(PASSWORD);
  await page.getByRole("button", { name: "Join" }).click();
  // An agent starts in the inbox.
  await expect(page).toHaveURL(/\/inbox/);
  await expect(page.getByTestId("signed-in-as")).toHaveText(`${agentEmail} · agent`);
  return page;
}

test("an owner invites an agent on one sender; the agent sees only it, no tokens; removal ends the session", async ({
  page,
  browser,
}) => {
  await login(page);
  // Two contacts write: one to the agent's sender, one to the other sender (contactWrites
  // waits, with the owner's session, until each conversation is filed).
  const mine = `+1415557${stamp.slice(-4)}`;
  const theirs = `+1415556${stamp.slice(-4)}`;
  await contactWrites(page, mine, `For the agent ${stamp}`, DEMO_SENDER);
  await contactWrites(page, theirs, `Not for the agent ${stamp}`, OTHER_SENDER);
  const createToken = await captureCreateToken(page);

  // The owner invites the agent, limited to the default sender.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { name: "Members", level: 1 })).toBeVisible();
  await hydrated(page.getByLabel("Role", { exact: true }));
  await page.getByLabel("Email", { exact: true }).fill(agentEmail);
  await page.getByLabel("Role", { exact: true }).selectOption("agent");
  // The invitation form's box: a limited member's row lists the same sender.
  await page
    .getByRole("region", { name: "Invite a member" })
    .getByRole("checkbox", { name: DEMO_SENDER.phoneNumber })
    .check();
  await page.getByRole("button", { name: "Send invitation" }).click();
  const invitation = page.getByTestId("invitation-row").filter({ hasText: agentEmail });
  await expect(invitation).toContainText("pending");
  await expect(invitation).toContainText(DEMO_SENDER.phoneNumber);
  await expectAccessible(page);
  await saveScreenshot(page, "members-invited");

  // The agent follows the emailed link and joins.
  const link = invitationLink(agentEmail);
  expect(link).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
  const agent = await agentPage(browser, link);

  // Only the agent's sender: in the list, in search, in the sender switcher.
  const items = agent.getByTestId("conversation-item");
  // (A list item shows the contact's number and the last message: the other sender's
  // chatbot may have answered, so the contacts are told apart by number.)
  await expect(items.filter({ hasText: mine })).toBeVisible();
  await expect(items.filter({ hasText: theirs })).toHaveCount(0);
  const search = agent.getByLabel("Search by name or number");
  await hydrated(search);
  await search.fill(theirs);
  await search.press("Enter");
  await expect(agent.getByText("No conversations match.")).toBeVisible();
  await search.fill(mine);
  await search.press("Enter");
  await expect(items.filter({ hasText: mine })).toBeVisible();
  await expect(items).toHaveCount(1);
  const switcher = agent.locator("#sender-switcher option");
  await expect(switcher.filter({ hasText: OTHER_SENDER.phoneNumber })).toHaveCount(0);
  await expect(switcher.filter({ hasText: DEMO_SENDER.phoneNumber })).toHaveCount(1);
  // The owner sees both.
  await page.goto("/inbox");
  await expect(page.getByTestId("conversation-item").filter({ hasText: theirs })).toBeVisible();

  // No tokens: not in the navigation, the page refuses, and its action does nothing.
  const nav = agent.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "API tokens" })).toHaveCount(0);
  await agent.goto("/tokens");
  await expect(agent).toHaveURL(/\/no-access\?need=tokens/);
  await expect(agent.getByRole("heading", { name: "You do not have access to this page" })).toBeVisible();
  await saveScreenshot(agent, "members-agent-no-access");
  const forged = await replayCreateToken(agent, createToken, `forged-by-agent-${stamp}`);
  expect(forged.headers()["x-action-redirect"] ?? "").toContain("/no-access");
  // The same replay by the owner does create a token: the agent's was refused, not malformed.
  const control = await replayCreateToken(page, createToken, `replayed-by-owner-${stamp}`);
  expect(control.status()).toBe(200);
  await page.goto("/tokens");
  await expect(page.getByRole("link", { name: /replayed-by-owner/ })).toBeVisible();
  await expect(page.getByRole("link", { name: /forged-by-agent/ })).toHaveCount(0);

  // The owner removes the agent; the agent's next click lands on the login page.
  await page.goto("/members");
  const row = page.getByTestId("member-row").filter({ hasText: agentEmail });
  await expect(row).toContainText("agent");
  await row.getByRole("button", { name: "Remove", exact: true }).click();
  await page.getByRole("button", { name: "Remove member" }).click();
  await expect(page.getByTestId("member-row").filter({ hasText: agentEmail })).toHaveCount(0);
  await nav.getByRole("link", { name: "Contacts" }).click();
  await expect(agent).toHaveURL(/\/login/);
  await saveScreenshot(agent, "members-agent-removed");
});

test("an invitation to an email of another account: the owner sees it sent and pending, nothing more", async ({
  page,
}) => {
  // An account elsewhere, made by the operator.
  const cli = (...args: string[]) =>
    JSON.parse(
      execFileSync("node", ["scripts/run.mjs", "cli", ...args, "--json"], {
        env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "", LOG_LEVEL: "silent", NODE_ENV: "development" },
        encoding: "utf8",
      }),
    ) as Record<string, string>;
  const taken = `elsewhere-${stamp}@example.test`;
  const { customerId } = cli("customer:create", "--name", `Elsewhere ${stamp}`);
  cli("user:create", "--customer", customerId, "--email", taken, "--password", PASSWORD);

  await login(page);
  await page.goto("/members");
  await hydrated(page.getByLabel("Role", { exact: true }));
  await page.getByLabel("Email", { exact: true }).fill(taken);
  await page.getByLabel("Role", { exact: true }).selectOption("developer");
  await page.getByRole("button", { name: "Send invitation" }).click();
  await expect(page.getByText("Invitation sent")).toBeVisible();
  await expect(page.getByTestId("invitation-row").filter({ hasText: taken })).toContainText("pending");
  await expect(page.getByText(/already has|another account|one account/i)).toHaveCount(0);

  // Its owner was told, without a link (it could not be accepted with this address).
  const out = execFileSync("node", ["scripts/run.mjs", "cli", "mail:list", "--to", taken, "--json"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "", LOG_LEVEL: "silent", NODE_ENV: "development" },
    encoding: "utf8",
  });
  const { mail } = JSON.parse(out) as { mail: { links: string[] }[] };
  expect(mail).toHaveLength(1);
  expect(mail[0]?.links.filter((l) => l.includes("/invite/"))).toEqual([]);
});
