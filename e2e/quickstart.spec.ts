import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { DENIED_PORTS } from "../lib/domains/webhooks/url-guard";
import { hydrated } from "./helpers";

// The quickstart (docs/integrators/quickstart.md), followed as written against the fresh app:
// its two dashboard steps in the browser, then its commands taken from the Markdown itself
// (so the doc and this test cannot drift) and run with curl and Node, the receiver it gives
// included. Only what the doc tells the reader to fill in is substituted: the service's URL,
// the token, the receiver's URL (and its PORT), the signing secret and the webhook's uid from
// the answers. Both ways (curl, Node) end with the receiver printing verified events.

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "..");
const DOC = path.join(ROOT, "docs/integrators/quickstart.md");

type Block = { lang: string; code: string };

function blocks(markdown: string): Block[] {
  return [...markdown.matchAll(/^```(\w+)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1] ?? "", code: m[2] ?? "" }));
}

/** The one block of `lang` that contains `marker` (two would make the test ambiguous). */
function blockWith(all: Block[], lang: string, marker: string): string {
  const found = all.filter((b) => b.lang === lang && b.code.includes(marker));
  expect(found, `one ${lang} block of the quickstart with ${marker}`).toHaveLength(1);
  return found[0]?.code ?? "";
}

/** Replaces a placeholder the doc tells the reader to fill in; it must be there as written. */
function fill(code: string, placeholder: string, value: string): string {
  expect(code, `the quickstart's placeholder ${placeholder}`).toContain(placeholder);
  return code.replaceAll(placeholder, value);
}

/** A Node script of the doc: its first line names the file and how it is run ("// send.mjs: node send.mjs"). */
function script(all: Block[], file: string): { code: string; command: string } {
  const code = blockWith(all, "js", `// ${file}: `);
  const command = (code.split("\n")[0] ?? "").replace(`// ${file}: `, "").trim();
  return { code, command };
}

/** A free TCP port a webhook may be delivered to. */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = net.createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    if (!DENIED_PORTS.has(port)) return port;
  }
}

test("the quickstart's commands, run as written with curl and with Node, end with verified webhooks", async ({
  page,
}) => {
  test.setTimeout(240_000);
  const all = blocks(fs.readFileSync(DOC, "utf8"));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "quickstart-"));
  // "In an empty folder, npm install standardwebhooks": the same package, from this repository's install.
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  const receivers: ChildProcess[] = [];
  try {
    // 1. Sign up and add a sender, 2. create a token: in the dashboard.
    const stamp = String(Date.now());
    await page.goto("/signup");
    await page.getByLabel("Company name").fill("Quickstart Co");
    await page.getByLabel("Work email").fill(`quickstart-${stamp}@example.com`);
    await page.getByLabel("Password (at least 10 characters)").fill("a-long-password-1");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByTestId("onboarding-progress")).toBeVisible();
    await page.goto("/senders");
    const phone = `+1415559${stamp.slice(-4)}`;
    await hydrated(page.getByLabel("Phone number (with + and country code)"));
    await page.getByLabel("Phone number (with + and country code)").fill(phone);
    await page.getByRole("button", { name: "Add sender" }).click();
    await expect(page.getByRole("row").filter({ hasText: phone })).toContainText("default");
    await page.goto("/tokens");
    await hydrated(page.getByLabel("Name"));
    await page.getByLabel("Name").fill("quickstart");
    await page.getByRole("button", { name: "Generate token" }).click();
    const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
    expect(token).toMatch(/^swb_live_/);

    // The exports of the doc, with the reader's values; every later command runs after them.
    const base = new URL(page.url()).origin;
    const exports = [
      fill(blockWith(all, "sh", "export SWITCHBOARD_URL="), "http://localhost:3000", base),
      fill(blockWith(all, "sh", "export SWITCHBOARD_TOKEN="), "'swb_live_…'", `'${token}'`),
    ];
    // A reader's shell: PATH and HOME, none of this test run's settings.
    const env = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? dir, NODE_ENV: "production" as const };
    const sh = async (code: string, extraExports: string[] = []) =>
      (await run("bash", ["-ec", [...exports, ...extraExports, code].join("\n")], { cwd: dir, env })).stdout;
    const json = (out: string) => JSON.parse(out.trim().split("\n").at(-1) ?? "{}");

    // Check the token with a read.
    const senders = json(await sh(blockWith(all, "sh", "/api/v3/senders")));
    expect(JSON.stringify(senders)).toContain(phone);

    // 3. Send hello_world: curl, then Node.
    const sentByCurl = json(await sh(blockWith(all, "sh", '"Idempotency-Key: quickstart-1"')));
    expect(sentByCurl).toMatchObject({ success: true, data: { messageUid: expect.any(String) } });
    expect(["accepted", "queued"]).toContain(sentByCurl.data.status);
    const send = script(all, "send.mjs");
    fs.writeFileSync(path.join(dir, "send.mjs"), send.code);
    const sentByNode = await sh(send.command);
    expect(sentByNode).toMatch(/^200 /);
    expect(sentByNode).toContain("messageUid");

    // 4. The receiver, saved as written.
    const receiver = script(all, "receiver.mjs");
    fs.writeFileSync(path.join(dir, "receiver.mjs"), receiver.code);
    const createByCurl = blockWith(all, "sh", "export RECEIVER_URL=");
    const receiverUrlLine = createByCurl.split("\n").find((l) => l.startsWith("export RECEIVER_URL=")) ?? "";
    const startReceiver = blockWith(all, "sh", "node receiver.mjs");
    const testAndSend = blockWith(all, "sh", "<webhookUid>");

    /** Starts the receiver as the doc says, on `port`; its output so far. */
    const started = async (secret: string, port: number) => {
      const command = fill(startReceiver, "'whsec_…'", `'${secret}'`);
      // Its own process group: ended with the node process it starts.
      const child = spawn("bash", ["-ec", [...exports, command].join("\n")], {
        cwd: dir,
        env: { ...env, PORT: String(port) },
        detached: true,
      });
      receivers.push(child);
      let out = "";
      child.stdout?.on("data", (c: Buffer) => {
        out += c.toString();
      });
      child.stderr?.on("data", (c: Buffer) => {
        out += c.toString();
      });
      await expect.poll(() => out, { timeout: 15_000 }).toContain(`listening on :${port}`);
      return () => out;
    };

    /** 5. Then the signed test event and hello_world again: the receiver prints both verified. */
    const endsVerified = async (uid: string, output: () => string, receiverExport: string) => {
      await sh(fill(testAndSend, "<webhookUid>", uid), [receiverExport]);
      await expect.poll(output, { timeout: 60_000 }).toMatch(/^verified webhook\.test evt_/m);
      await expect.poll(output, { timeout: 60_000 }).toMatch(/^verified message\.status\.accepted evt_/m);
      expect(output()).not.toMatch(/^rejected/m);
    };

    // 5 with curl: create the webhook, start the receiver with its secret, test and send.
    const portA = await freePort();
    const urlA = `http://127.0.0.1:${portA}/`;
    const createdByCurl = json(await sh(fill(createByCurl, "http://127.0.0.1:4000/", urlA)));
    expect(createdByCurl.signingSecret).toMatch(/^whsec_/);
    const outputA = await started(createdByCurl.signingSecret, portA);
    await endsVerified(createdByCurl.data.webhookUid, outputA, fill(receiverUrlLine, "http://127.0.0.1:4000/", urlA));

    // 5 with Node: webhook.mjs prints the uid and the secret; a second receiver verifies with it.
    const portB = await freePort();
    const urlB = `http://127.0.0.1:${portB}/`;
    const exportB = fill(receiverUrlLine, "http://127.0.0.1:4000/", urlB);
    const create = script(all, "webhook.mjs");
    fs.writeFileSync(path.join(dir, "webhook.mjs"), create.code);
    const [uidB, secretB] = (await sh(create.command, [exportB])).trim().split(/\s+/);
    expect(secretB).toMatch(/^whsec_/);
    const outputB = await started(secretB ?? "", portB);
    await endsVerified(uidB ?? "", outputB, exportB);
  } finally {
    for (const child of receivers) if (child.pid) process.kill(-child.pid, "SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
