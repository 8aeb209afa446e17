// Inbound media kept on arrival (docs/media.md "Inbound media"): a contact's file arrives in a
// signed callback, the ingest records it `pending` at once (thread entry and event carry it),
// and the media worker fetches it from the provider (the simulator serves it as the provider
// does), checks its sha256 and keeps it: its bytes are then served by GET /media/{id}/content.
// A failed download is retried; bytes that are not what was announced, and a download still
// failing past its deadline, make the file unavailable with the reason. Two workers never
// fetch one file twice; another account never sees it.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { inboundMediaChange, inboundWamid } from "@/lib/domains/provider/simulator-inbound";
import { keepContactMedia } from "@/lib/domains/provider/simulator-media";
import type { ProviderMediaDownloads } from "@/lib/domains/provider/types";
import type { Sender } from "@/lib/domains/senders/service";
import { getStorage, setStorage } from "@/lib/storage";
import { cliInProcess } from "@/test/cli-process";
import { contactWrites, drainCallbacks, postSigned } from "@/test/conversation-fixtures";
import { waitFor } from "@/test/events-helpers";
import { call, createTestCustomer, type TestCustomer, uniquePhone } from "@/test/factory";
import * as samples from "@/test/media-samples";
import { STORAGE_ENGINES } from "@/test/s3-store";
import { fetchDueMedia } from "./fetch-worker";
import { objectKey } from "./objects";

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const simulator = () => {
  const sim = getSimulator();
  if (!sim) throw new Error("tests expect the simulator");
  return sim;
};

type Sent = { providerMediaId: string; messageId: string; from: string; bytes: Buffer };

/** A contact sends a file: kept by the simulator (the provider), announced by a signed callback, applied. */
async function contactSends(
  sender: Sender,
  kind: string,
  bytes: Buffer,
  mimeType: string,
  over: { caption?: string; filename?: string; sha256?: string } = {},
): Promise<Sent> {
  const kept = await keepContactMedia(bytes, mimeType);
  const from = uniquePhone();
  const messageId = inboundWamid();
  const change = inboundMediaChange(
    { phoneNumberId: sender.phoneNumberId ?? "", phoneNumber: sender.phoneNumber, wabaId: sender.wabaId },
    {
      from,
      id: messageId,
      kind,
      media: {
        id: kept.id,
        mime_type: mimeType,
        sha256: over.sha256 ?? kept.sha256,
        ...(over.caption ? { caption: over.caption } : {}),
        ...(over.filename ? { filename: over.filename } : {}),
      },
    },
  );
  expect(await postSigned(envelopeFor([change]))).toBe(200);
  await drainCallbacks();
  return { providerMediaId: kept.id, messageId, from, bytes };
}

const mediaOf = async (messageId: string) => {
  const entry = await db.conversationMessage.findUniqueOrThrow({ where: { providerMessageId: messageId } });
  if (!entry.mediaId) throw new Error("the entry has no media");
  return db.media.findUniqueOrThrow({ where: { id: entry.mediaId } });
};

const threadEntry = async (t: TestCustomer, messageId: string) => {
  const entry = await db.conversationMessage.findUniqueOrThrow({ where: { providerMessageId: messageId } });
  const res = await call("GET", `/api/v3/conversations/${entry.conversationId}/messages`, { token: t.globalToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data.messages as { providerMessageId: string; media: unknown }[]).find(
    (m) => m.providerMessageId === messageId,
  );
};

let t: TestCustomer;
let other: TestCustomer;
beforeAll(async () => {
  t = await createTestCustomer();
  other = await createTestCustomer();
});

/** One pass of the media worker for this test's account, retries due at once. */
const fetchPass = (over: Parameters<typeof fetchDueMedia>[0] = {}) =>
  fetchDueMedia({ customerIds: [t.customer.id], retryBaseMs: 1, maxRetryMs: 1, ...over });

/** Passes until nothing of this account is due (a retry scheduled 1 ms away included). */
async function fetchAll(): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const { claimed, retryInMs } = await fetchPass();
    if (claimed === 0 && retryInMs === null) {
      const due = await db.media.count({ where: { customerId: t.customer.id, status: "pending" } });
      if (due === 0) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

describe.each(STORAGE_ENGINES)("on the $engine engine", ({ store: make }) => {
  const store = make();
  beforeAll(() => setStorage(store));
  afterAll(() => setStorage(undefined));

  it("records an inbound image pending at once, then fetches it: ready, its bytes served", async () => {
    const bytes = await samples.jpeg(200, 150);
    const sent = await contactSends(t.sender, "image", bytes, "image/jpeg", { caption: "The broken handle" });

    // The ingest waited for nothing: the file is pending, the thread entry and the event say so.
    const pending = await mediaOf(sent.messageId);
    expect(pending).toMatchObject({
      customerId: t.customer.id,
      senderId: t.sender.id,
      source: "inbound",
      status: "pending",
      kind: "image",
      mimeType: "image/jpeg",
      sha256: sha(bytes),
      fileSize: null,
      providerMediaId: sent.providerMediaId,
    });
    expect(pending.fetchDeadline?.getTime()).toBeGreaterThan(Date.now() + 5.9 * 3_600_000);
    const facts = {
      mediaId: pending.id,
      kind: "image",
      mimeType: "image/jpeg",
      sha256: sha(bytes),
      caption: "The broken handle",
    };
    expect(await threadEntry(t, sent.messageId)).toMatchObject({
      media: { ...facts, fileSize: null, status: "pending" },
    });
    const event = await db.webhookEvent.findUniqueOrThrow({ where: { dedupeKey: `inbound:${sent.messageId}` } });
    expect((event.payload as { data: { media: unknown } }).data.media).toEqual({
      ...facts,
      fileSize: null,
      status: "pending",
    });
    const early = await call("GET", `/api/v3/media/${pending.id}/content`, { token: t.globalToken });
    expect(early.status).toBe(409);
    expect(early.body.error_code ?? early.body.error?.code).toBeDefined();

    await fetchAll();
    const ready = await db.media.findUniqueOrThrow({ where: { id: pending.id } });
    expect(ready).toMatchObject({ status: "ready", fileSize: bytes.length, sha256: sha(bytes), holdsObject: true });
    expect(await threadEntry(t, sent.messageId)).toMatchObject({
      media: { ...facts, fileSize: bytes.length, status: "ready" },
    });
    const content = await call("GET", `/api/v3/media/${pending.id}/content`, { token: t.globalToken });
    expect(content.status).toBe(200);
    expect(content.headers.get("content-type")).toBe("image/jpeg");
    expect(Buffer.compare(content.body, bytes)).toBe(0);
    const described = await call("GET", `/api/v3/media/${pending.id}`, { token: t.globalToken });
    expect(described.body.data).toMatchObject({ source: "inbound", status: "ready", senderId: t.sender.phoneNumber });

    // Another account's token: not found, facts or bytes.
    for (const path of [`/api/v3/media/${pending.id}`, `/api/v3/media/${pending.id}/content`]) {
      const res = await call("GET", path, { token: other.globalToken });
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).toContain("MEDIA_NOT_FOUND");
    }
  });
});

describe("inbound media downloads", () => {
  it("a replayed callback records no second file", async () => {
    const bytes = samples.pdf("Invoice 42");
    const sent = await contactSends(t.sender, "document", bytes, "application/pdf", { filename: "invoice.pdf" });
    const first = await mediaOf(sent.messageId);
    expect(first).toMatchObject({ kind: "document", filename: "invoice.pdf", status: "pending" });
    // The provider posts the same message again.
    const change = inboundMediaChange(
      { phoneNumberId: t.sender.phoneNumberId ?? "", phoneNumber: t.sender.phoneNumber, wabaId: t.sender.wabaId },
      {
        from: sent.from,
        id: sent.messageId,
        kind: "document",
        media: { id: sent.providerMediaId, mime_type: "application/pdf", sha256: sha(bytes), filename: "invoice.pdf" },
      },
    );
    expect(await postSigned(envelopeFor([change]))).toBe(200);
    await drainCallbacks();
    expect(await db.media.count({ where: { providerMediaId: sent.providerMediaId } })).toBe(1);
    expect((await mediaOf(sent.messageId)).id).toBe(first.id);
    await fetchAll();
    expect(await mediaOf(sent.messageId)).toMatchObject({ status: "ready", fileSize: bytes.length });
  });

  it("retries a download that fails, then keeps the file", async () => {
    const bytes = await samples.jpeg(90, 90);
    const sim = simulator();
    const kept = await contactSends(t.sender, "image", bytes, "image/jpeg");
    sim.failDownloads(kept.providerMediaId, 2);
    const first = await fetchPass();
    expect(first.claimed).toBeGreaterThanOrEqual(1);
    const failed = await mediaOf(kept.messageId);
    expect(failed).toMatchObject({ status: "pending", attempts: 1, lockedUntil: null });
    expect(failed.lastError).toContain("temporarily unavailable");
    expect(failed.nextAttemptAt).not.toBeNull();
    await fetchAll();
    const ready = await mediaOf(kept.messageId);
    expect(ready).toMatchObject({ status: "ready", attempts: 3, lastError: null, fileSize: bytes.length });
  });

  it("a file whose sha256 is not the announced one is unavailable at once, with the reason", async () => {
    const bytes = await samples.jpeg(70, 70);
    const sent = await contactSends(t.sender, "image", bytes, "image/jpeg", { sha256: "0".repeat(64) });
    await fetchPass();
    const media = await mediaOf(sent.messageId);
    expect(media).toMatchObject({ status: "unavailable", attempts: 1, holdsObject: false });
    expect(media.unavailableReason).toMatch(/SHA-256/);
    expect(await threadEntry(t, sent.messageId)).toMatchObject({
      media: { status: "unavailable", unavailableReason: expect.stringMatching(/SHA-256/) },
    });
    const content = await call("GET", `/api/v3/media/${media.id}/content`, { token: t.globalToken });
    expect(content.status).toBe(409);
    expect(await db.mediaObject.count({ where: { customerId: t.customer.id, sha256: sha(bytes) } })).toBe(0);
  });

  it("a download still failing past its deadline is unavailable with the last error", async () => {
    const bytes = await samples.jpeg(60, 60);
    const sent = await contactSends(t.sender, "image", bytes, "image/jpeg");
    simulator().failDownloads(sent.providerMediaId, 100);
    await fetchPass();
    expect(await mediaOf(sent.messageId)).toMatchObject({ status: "pending", attempts: 1 });
    // Six hours later.
    await db.media.update({
      where: { id: (await mediaOf(sent.messageId)).id },
      data: { fetchDeadline: new Date(Date.now() - 1000), nextAttemptAt: new Date(Date.now() - 1000) },
    });
    await fetchPass();
    const media = await mediaOf(sent.messageId);
    expect(media).toMatchObject({ status: "unavailable", attempts: 2 });
    expect(media.unavailableReason).toMatch(/within 6 hours.*temporarily unavailable/);
    simulator().failDownloads(sent.providerMediaId, 0);
  });

  it("reads the callback's sha256 in base64, as the provider sends it", async () => {
    const bytes = await samples.jpeg(50, 41);
    const base64 = Buffer.from(sha(bytes), "hex").toString("base64");
    const sent = await contactSends(t.sender, "image", bytes, "image/jpeg", { sha256: base64 });
    expect((await mediaOf(sent.messageId)).sha256).toBe(sha(bytes));
    await fetchAll();
    expect(await mediaOf(sent.messageId)).toMatchObject({ status: "ready", sha256: sha(bytes) });
  });

  it("a media id the provider does not know is unavailable at once", async () => {
    const from = uniquePhone();
    const messageId = inboundWamid();
    const change = inboundMediaChange(
      { phoneNumberId: t.sender.phoneNumberId ?? "", phoneNumber: t.sender.phoneNumber, wabaId: t.sender.wabaId },
      { from, id: messageId, kind: "audio", media: { id: "999000111222", mime_type: "audio/ogg", sha256: "ab" } },
    );
    expect(await postSigned(envelopeFor([change]))).toBe(200);
    await drainCallbacks();
    await fetchPass();
    const media = await mediaOf(messageId);
    expect(media).toMatchObject({ status: "unavailable", sha256: null });
    expect(media.unavailableReason).toMatch(/does not exist/);
  });

  it("two workers never fetch one file twice", async () => {
    const sim = simulator();
    const files = await Promise.all(
      Array.from({ length: 12 }, async (_, i) =>
        contactSends(t.sender, "image", await samples.jpeg(20 + i, 20), "image/jpeg"),
      ),
    );
    const described = new Map<string, number>();
    // The simulator's downloads, counted, a little slow so the workers' passes overlap.
    const counting: ProviderMediaDownloads = {
      describeMedia: async (sender, id) => {
        described.set(id, (described.get(id) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 20));
        return sim.describeMedia(sender, id);
      },
      downloadMedia: (sender, url) => sim.downloadMedia(sender, url),
    };
    const worker = async () => {
      for (let i = 0; i < 10; i++) await fetchPass({ provider: counting, batchSize: 3 });
    };
    await Promise.all([worker(), worker()]);
    for (const f of files) {
      expect(described.get(f.providerMediaId), f.providerMediaId).toBe(1);
      expect(await mediaOf(f.messageId)).toMatchObject({ status: "ready", attempts: 1 });
    }
  });
});

describe("simulate:inbound --media and media:gc", () => {
  it("a simulated contact who answers with a photo sends one the worker fetches and keeps", async () => {
    const sim = simulator();
    const to = uniquePhone();
    // The contact wrote first: the window is open for a free-form message.
    await contactWrites(t.sender, to, "Where is my order?");
    const before = { replyRate: sim.options.replyRate, imageReplyRate: sim.options.imageReplyRate };
    sim.options.replyRate = 1;
    sim.options.imageReplyRate = 1;
    sim.forceOutcome(to, "delivered");
    try {
      const outcome = await sim.sendMessage(
        { phoneNumberId: t.sender.phoneNumberId ?? "", phoneNumber: t.sender.phoneNumber, wabaId: t.sender.wabaId },
        { messaging_product: "whatsapp", to, type: "text", text: { body: "Your order shipped" } },
      );
      expect(outcome.ok).toBe(true);
    } finally {
      Object.assign(sim.options, before);
      sim.forceOutcome(to, undefined);
    }
    const entry = await waitFor(
      async () => {
        await drainCallbacks();
        return db.conversationMessage.findFirst({
          where: { customerId: t.customer.id, type: "image", conversation: { contactPhoneNumber: to } },
        });
      },
      20_000,
      "the contact's photo",
    );
    await fetchAll();
    const media = await db.media.findUniqueOrThrow({ where: { id: entry.mediaId ?? "" } });
    expect(media).toMatchObject({ kind: "image", mimeType: "image/jpeg", status: "ready", source: "inbound" });
    const content = await call("GET", `/api/v3/media/${media.id}/content`, { token: t.globalToken });
    expect(sha(content.body)).toBe(media.sha256);
  });

  it("simulate:inbound --media runs the whole inbound path: callback, download, sha256 check, storage", async () => {
    const bytes = await samples.noisePng(40);
    const file = path.join(os.tmpdir(), `contact-photo-${randomBytes(4).toString("hex")}.png`);
    fs.writeFileSync(file, bytes);
    try {
      const from = uniquePhone();
      const run = await cliInProcess(
        "simulate:inbound",
        "--sender",
        t.sender.phoneNumber,
        "--from",
        from,
        "--media",
        file,
        "--caption",
        "Does this fit?",
        "--json",
      );
      expect(run.stderr, run.stderr).toBe("");
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout.trim());
      expect(out.conversationUid).toMatch(/^conv_/);
      expect(out.media).toMatchObject({
        kind: "image",
        mimeType: "image/png",
        sha256: sha(bytes),
        fileSize: bytes.length,
        caption: "Does this fit?",
        status: "ready",
      });
      const content = await call("GET", `/api/v3/media/${out.media.mediaId}/content`, { token: t.globalToken });
      expect(Buffer.compare(content.body, bytes)).toBe(0);
      const preview = await call("GET", `/api/v3/conversations/${out.conversationUid}`, { token: t.globalToken });
      expect(preview.body.data.lastMessagePreview).toBe("Does this fit?");
    } finally {
      fs.rmSync(file, { force: true });
    }
    const both = await cliInProcess("simulate:inbound", "--sender", t.sender.phoneNumber, "--from", uniquePhone());
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--text/);
  });

  it("simulate:inbound --voice sends an audio file as a voice note; any other file or no file is refused", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "voice-"));
    const voice = path.join(dir, "note.ogg");
    const photo = path.join(dir, "photo.png");
    fs.writeFileSync(voice, samples.oggOpus());
    fs.writeFileSync(photo, await samples.noisePng(20));
    try {
      const args = ["simulate:inbound", "--sender", t.sender.phoneNumber, "--from", uniquePhone()];
      const run = await cliInProcess(...args, "--media", voice, "--voice", "--json");
      expect(run.stderr, run.stderr).toBe("");
      expect(run.code).toBe(0);
      const out = JSON.parse(run.stdout.trim());
      expect(out.media).toMatchObject({ kind: "audio", status: "ready" });
      // The thread's entry carries the provider's audio.voice, which the inbox shows as a voice note.
      const entry = await db.conversationMessage.findUniqueOrThrow({ where: { providerMessageId: out.messageId } });
      expect(entry.type).toBe("audio");
      expect((entry.content as { audio: { voice?: boolean } }).audio.voice).toBe(true);
      const text = await cliInProcess(...args, "--media", voice, "--voice");
      expect(text.stdout).toContain("sent a voice note");

      const notAudio = await cliInProcess(...args, "--media", photo, "--voice");
      expect(notAudio.code).not.toBe(0);
      expect(notAudio.stderr).toContain("--voice needs an audio file");
      const noFile = await cliInProcess(...args, "--text", "hi", "--voice");
      expect(noFile.code).toBe(2);
      expect(noFile.stderr).toMatch(/voice/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("media:gc expires the files past their retention and frees the account's quota", async () => {
    const bytes = await samples.jpeg(33, 33);
    const sent = await contactSends(t.sender, "image", bytes, "image/jpeg");
    await fetchAll();
    const kept = await mediaOf(sent.messageId);
    expect(kept.status).toBe("ready");
    const key = objectKey(t.customer.id, sha(bytes));
    expect(await getStorage().stat(key)).toEqual({ size: bytes.length });
    const usage = async () => Number((await db.mediaUsage.findUnique({ where: { customerId: t.customer.id } }))?.bytes);
    const before = await usage();

    await db.media.update({ where: { id: kept.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const run = await cliInProcess("media:gc", "--json");
    expect(run.stderr, run.stderr).toBe("");
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout.trim());
    expect(out.expired).toBeGreaterThanOrEqual(1);
    expect(out.freedBytes).toBeGreaterThanOrEqual(bytes.length);

    expect(await mediaOf(sent.messageId)).toMatchObject({ status: "expired", holdsObject: false });
    expect(await getStorage().stat(key)).toBeNull();
    expect(await usage()).toBe(before - bytes.length);
    expect(await threadEntry(t, sent.messageId)).toMatchObject({
      media: { mediaId: kept.id, status: "expired", sha256: sha(bytes), fileSize: bytes.length },
    });
    const content = await call("GET", `/api/v3/media/${kept.id}/content`, { token: t.globalToken });
    expect(content.status).toBe(409);
    // A second run finds nothing more of this account: the record was expired once.
    expect((await cliInProcess("media:gc", "--json")).code).toBe(0);
    expect(await db.media.count({ where: { customerId: t.customer.id, status: "expired" } })).toBe(1);
  });
});
