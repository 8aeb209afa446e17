// Media in the inbox, from the browser (docs/inbox.md "Media", "Attaching a file"): an agent
// opens a conversation where the contact sent a photo, a voice note and a PDF (real inbound
// callbacks: the app's media worker fetches each file from the simulator) and sees each; attaches
// with the button and by pasting; drops an image on the reply box, watches its upload's
// progress, sends it, and the thread shows it;
// a 6 MB image is refused in the browser with the API's words; axe at 390 and 1280 px in light
// and dark. Then the account page's media storage (docs/media.md "Quota"): an upload through
// the API counts against the quota there, and its deletion gives the room back.
import { execFileSync } from "node:child_process";
import { createHash, randomInt } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { tooLargeMessage } from "../lib/domains/media/kinds";
import { envelopeFor } from "../lib/domains/provider/simulator-callbacks";
import { type InboundMediaObject, inboundMediaChange } from "../lib/domains/provider/simulator-inbound";
import { jpeg, noisePng, oggOpus, pdf } from "../test/media-samples";
import {
  contactWrites,
  DEMO_EMAIL,
  DEMO_SENDER,
  expectAccessible,
  generateToken,
  hydrated,
  login,
  saveScreenshot,
  signForApp,
} from "./helpers";

const stamp = String(Date.now()).slice(-6);
const agentEmail = `media-agent-${stamp}@example.test`;
const PASSWORD = "agent-password-123";
const contact = `+1415557${stamp.slice(-4)}`;
const name = `Noor ${stamp}`;

/** The operator CLI against the app's data folder (as `npm run -s cli --` would run it). */
function cli(...args: string[]): unknown {
  const out = execFileSync("node", ["scripts/run.mjs", "cli", ...args, "--json"], {
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? "", LOG_LEVEL: "silent", NODE_ENV: "development" },
    encoding: "utf8",
  });
  return JSON.parse(out);
}

/**
 * The contact sends a file: the simulated provider keeps it in the app's data folder
 * (DATA_DIR/simulator-media, as `simulate:inbound --media` keeps it) and a signed callback
 * announces its provider id and sha256, so the app runs the whole inbound path (the media
 * worker's fetch, the sha256 check, the store). Written here rather than by the CLI: the
 * callback of a voice note carries `voice: true`, which the CLI does not send.
 */
async function contactSends(
  page: Page,
  kind: string,
  bytes: Buffer,
  media: Omit<InboundMediaObject, "id" | "sha256">,
): Promise<void> {
  const folder = path.join(process.env.E2E_DATA_DIR ?? "", "simulator-media");
  fs.mkdirSync(folder, { recursive: true });
  const id = `${randomInt(1, 10)}${String(randomInt(0, 2 ** 47)).padStart(14, "0")}`;
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  fs.writeFileSync(path.join(folder, id), bytes);
  const facts = { id, mimeType: media.mime_type, sha256, fileSize: bytes.length };
  fs.writeFileSync(path.join(folder, `${id}.json`), JSON.stringify(facts));
  const body = envelopeFor([
    inboundMediaChange(DEMO_SENDER, { from: contact, name, kind, media: { ...media, id, sha256 } }),
  ]);
  const res = await page.request.post("/api/provider/webhook", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(body) },
  });
  expect(res.status()).toBe(200);
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/inbox/);
}

/** Drops a file (made in the page from base64) on an element, as a file dragged from the desktop. */
async function dropFile(page: Page, selector: string, file: { base64: string; name: string; type: string }) {
  const dataTransfer = await page.evaluateHandle((f) => {
    const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
    const dt = new DataTransfer();
    dt.items.add(new File([bytes], f.name, { type: f.type }));
    return dt;
  }, file);
  await page.dispatchEvent(selector, "dragenter", { dataTransfer });
  await page.dispatchEvent(selector, "dragover", { dataTransfer });
  await page.dispatchEvent(selector, "drop", { dataTransfer });
}

test("an agent sees a photo, a voice note and a PDF, sends a dropped image with its progress, and a 6 MB image is refused in the browser", async ({
  page,
}) => {
  // An agent on the demo's default sender; the contact writes, then sends three files.
  cli(
    "user:create",
    "--customer",
    DEMO_EMAIL,
    "--email",
    agentEmail,
    "--password",
    PASSWORD,
    "--role",
    "agent",
    "--senders",
    DEMO_SENDER.phoneNumber,
  );
  await signIn(page, agentEmail, PASSWORD);
  await contactWrites(page, contact, `My kettle broke ${stamp}`);
  await contactSends(page, "image", await jpeg(320, 240), { mime_type: "image/jpeg", caption: "The handle came off" });
  await contactSends(page, "audio", oggOpus(6_000), { mime_type: "audio/ogg", voice: true });
  const receipt = pdf("Receipt 1042");
  await contactSends(page, "document", receipt, {
    mime_type: "application/pdf",
    filename: "receipt-1042.pdf",
  });
  await page.goto(`/inbox?search=${contact.slice(-6)}`);
  await page.getByTestId("conversation-item").filter({ hasText: contact }).click();
  const thread = page.getByRole("log", { name: /^Messages with / });

  // The photo inline (its caption as alt text), opening full size; Escape closes it.
  const opener = thread.getByRole("button", { name: "The handle came off: open full size" });
  const image = opener.getByAltText("The handle came off", { exact: true });
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute("loading", "lazy");
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
  await opener.click();
  const full = page.getByRole("dialog", { name: "The handle came off" });
  await expect(full).toBeVisible();
  await expect(full.getByTestId("media-full")).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(full).toBeHidden();

  // The voice note plays in place; the PDF is a card with its name, size and a download.
  const audio = thread.getByTestId("media-audio");
  await expect(audio).toContainText("Voice note");
  await expect(audio.locator("audio")).toHaveAttribute("aria-label", "Voice note");
  const voiceSrc = await audio.locator("audio").getAttribute("src");
  const played = await page.request.get(voiceSrc ?? "", { headers: { Range: "bytes=0-3" } });
  expect(played.status()).toBe(206);
  expect(played.headers()["content-type"]).toBe("audio/ogg");
  expect((await played.body()).toString("latin1")).toBe("OggS");
  const card = thread.getByTestId("media-document");
  await expect(card).toContainText("receipt-1042.pdf");
  await expect(card).toContainText(`PDF · ${receipt.length} bytes`);
  const downloading = page.waitForEvent("download");
  await card.getByRole("link", { name: /^Download receipt-1042\.pdf/ }).click();
  expect((await downloading).suggestedFilename()).toBe("receipt-1042.pdf");

  // A 6 MB image is refused before any upload, with the API's words.
  const uploads: string[] = [];
  page.on("request", (r) => {
    if (r.url().endsWith("/api/dashboard/media") && r.method() === "POST") uploads.push(r.url());
  });
  await hydrated(page.getByRole("textbox", { name: "Reply" }));
  await page.evaluate(() => {
    const dt = new DataTransfer();
    dt.items.add(new File([new Uint8Array(6_000_000)], "huge.png", { type: "image/png" }));
    const target = document.querySelector('[data-testid="reply-form"]');
    for (const type of ["dragenter", "dragover", "drop"]) {
      target?.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }
  });
  await expect(page.getByTestId("attachment-refusal")).toHaveText(tooLargeMessage("image", 5_000_000));
  expect(uploads).toEqual([]);

  // The attach button opens the file picker, and a pasted file (a screenshot) attaches too; Remove takes it off.
  const chooser = page.waitForEvent("filechooser");
  await page.getByRole("button", { name: "Attach a file" }).click();
  await (await chooser).setFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: await jpeg(40, 30) });
  await expect(page.getByTestId("upload-state")).toContainText("Ready");
  await expect(page.getByRole("button", { name: "Send file" })).toBeEnabled();
  await page.getByRole("button", { name: "Remove attachment photo.jpg" }).click();
  await expect(page.getByTestId("attachment")).toHaveCount(0);
  const screenshot = (await jpeg(30, 20)).toString("base64");
  await page.getByRole("textbox", { name: "Reply" }).evaluate((textarea, base64) => {
    const dt = new DataTransfer();
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    dt.items.add(new File([bytes], "screenshot.jpg", { type: "image/jpeg" }));
    textarea.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
  }, screenshot);
  await expect(page.getByTestId("attachment")).toContainText("screenshot.jpg");
  await expect(page.getByTestId("upload-state")).toContainText("Ready");
  await page.getByRole("button", { name: "Remove attachment screenshot.jpg" }).click();
  await expect(page.getByTestId("attachment")).toHaveCount(0);

  // An image dropped on the reply box uploads with its progress (the upload slowed to show it), then sends.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: 1_000_000,
  });
  const label = await noisePng(600, 500);
  await dropFile(page, '[data-testid="reply-form"]', {
    base64: label.toString("base64"),
    name: "return-label.png",
    type: "image/png",
  });
  await expect(page.getByTestId("attachment-refusal")).toHaveCount(0);
  const progress = page.getByRole("progressbar", { name: "Uploading return-label.png" });
  await expect(progress).toBeVisible();
  await expect
    .poll(() => progress.evaluate((p: HTMLProgressElement) => p.value), { timeout: 10_000 })
    .toBeGreaterThan(0);
  await expect(page.getByTestId("upload-state")).toContainText("Ready", { timeout: 20_000 });
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await page.getByRole("textbox", { name: "Reply" }).fill("Print this label, please");
  await page.getByRole("button", { name: "Send file" }).click();
  const sent = thread
    .getByTestId("thread-message")
    .filter({ has: page.getByRole("button", { name: "Print this label, please: open full size" }) });
  await expect(sent).toHaveAttribute("data-direction", "outbound");
  await expect(sent).toContainText(agentEmail);
  await expect(page.getByTestId("attachment")).toHaveCount(0);
  await expect
    .poll(() =>
      sent
        .getByRole("button")
        .locator("img")
        .evaluate((img: HTMLImageElement) => img.naturalWidth),
    )
    .toBe(600);
  await expect(sent).toHaveAttribute("data-status", /sent|delivered|read/, { timeout: 30_000 });

  // Accessible at a desktop's and a phone's width, light and dark.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    for (const theme of ["light", "dark"] as const) {
      const toggle = page.getByRole("button", { name: theme === "dark" ? "Dark mode" : "Light mode" });
      if (await toggle.isVisible()) await toggle.click();
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      await expect(image).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await expectAccessible(page);
    }
  }
  await saveScreenshot(page, "inbox-media-phone-dark");
});

/** The account page's "1.2 MB of 5000 MB used by 3 files", read back: the figure in bytes as shown, the quota, the files. */
function usageOf(text: string | null) {
  const m = /^([\d.]+) (bytes?|KB|MB) of ([\d.]+ MB) used by (\d+) files?$/.exec(text?.trim() ?? "");
  if (!m) throw new Error(`not a media usage: ${text}`);
  const unit = { byte: 1, bytes: 1, KB: 1_000, MB: 1_000_000 }[m[2] as "byte" | "bytes" | "KB" | "MB"];
  return { bytes: Number(m[1]) * unit, quota: m[3], files: Number(m[4]) };
}

test("the account page shows an upload against the media quota, and its deletion gives the room back", async ({
  page,
}) => {
  await login(page);
  const token = await generateToken(page, `media usage ${stamp}`);
  await page.goto("/account");
  const usage = page.getByTestId("media-usage");
  const before = (await usage.textContent()) ?? "";
  const was = usageOf(before);
  expect(was.quota).toBe("5000 MB");

  // A 3 MB document (bytes no other test keeps) uploaded with a token, as an integrator would.
  const bytes = pdf(`Catalogue ${stamp}`, 3_000_000);
  const res = await page.request.post("/api/v3/media", {
    headers: { Authorization: `Bearer ${token}` },
    multipart: { file: { name: "catalogue.pdf", mimeType: "application/pdf", buffer: bytes } },
  });
  expect(res.status()).toBe(201);
  const { mediaId } = (await res.json()).data as { mediaId: string };
  await page.reload();
  const now = usageOf(await usage.textContent());
  expect(now.files).toBe(was.files + 1);
  // The figure is rounded (one decimal under 10 MB, whole MB above): 3 MB more, within that rounding.
  expect(Math.abs(now.bytes - was.bytes - 3_000_000)).toBeLessThanOrEqual(1_000_000);
  await expect(page.getByRole("meter", { name: "Media storage used" })).toBeVisible();
  await expectAccessible(page);

  const removed = await page.request.delete(`/api/v3/media/${mediaId}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  expect(removed.status()).toBe(200);
  await page.reload();
  await expect(usage).toHaveText(before);
});
