// Sends by mediaId through the real router (docs/media.md "Sending media"): a file uploaded on
// the provider route and sent by id on /chat and on the provider-shaped route, uploaded to the
// provider for the sender once (the simulator keeps what it was sent), re-uploaded after the
// cached id expires and per sender; another account's or another sender's file, a file not
// ready or of another kind refused before anything is sent or billed; template media headers by
// id or link; a broadcast's header file uploaded once for all its recipients. The first test on
// both storage engines (the upload to the provider reads the store).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { dispatchOnce } from "@/lib/domains/broadcasts/dispatcher";
import { setProvider } from "@/lib/domains/provider/client";
import { ProviderSimulator, simulatorOptionsFromEnv } from "@/lib/domains/provider/simulator";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { setStorage } from "@/lib/storage";
import { recordApiAnswers } from "@/test/api-answers";
import { postProvider, statusBody } from "@/test/events-helpers";
import { call, createTestCustomer } from "@/test/factory";
import * as samples from "@/test/media-samples";
import { engagedRecipient, messagingCustomer } from "@/test/messaging-fixtures";
import { STORAGE_ENGINES } from "@/test/s3-store";

recordApiAnswers();

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

let t: Awaited<ReturnType<typeof messagingCustomer>>;
let simulator: ProviderSimulator;
beforeAll(async () => {
  t = await messagingCustomer({ credit: 20 });
  // The statuses come from the test alone (the simulator would send its own meanwhile).
  simulator = new ProviderSimulator({
    ...simulatorOptionsFromEnv(),
    replyRate: 0,
    failureRate: 0,
    statusDelayMs: 3_600_000,
  });
  setProvider(simulator);
});
afterAll(() => setProvider(undefined));

const phoneNumberId = () => t.sender.phoneNumberId ?? "";

/** The provider's upload form, as a stock SDK posts it. */
async function providerUpload(
  bytes: Buffer,
  name: string,
  type: string,
  options: { token?: string; id?: string } = {},
) {
  const form = new FormData();
  form.set("messaging_product", "whatsapp");
  form.set("type", type);
  form.set("file", new Blob([new Uint8Array(bytes)], { type }), name);
  return call("POST", `/api/v3/${options.id ?? phoneNumberId()}/media`, {
    token: options.token ?? t.globalToken,
    form,
  });
}

/** What the simulated provider received for a number: its uploads of these bytes. */
const uploadsOf = (bytes: Buffer, id = phoneNumberId()) =>
  [...simulator.uploads.byId.values()].filter((u) => u.phoneNumberId === id && u.sha256 === sha(bytes));

const chat = (to: string, media: Record<string, unknown>, options: { token?: string; type?: string } = {}) =>
  call("POST", "/api/v3/chat", {
    token: options.token ?? t.globalToken,
    body: { to, type: options.type ?? "image", media },
  });

const messagesSent = async () => db.message.count({ where: { customerId: t.customer.id } });

describe.each(STORAGE_ENGINES)("on the $engine engine", ({ store: make }) => {
  beforeAll(() => setStorage(make()));
  afterAll(() => setStorage(undefined));

  it("sends an uploaded file by id on /chat and the provider route, uploading it to the provider once", async () => {
    const bytes = await samples.noisePng(48);
    const uploaded = await providerUpload(bytes, "label.png", "image/png");
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const id = uploaded.body.id as string;
    expect(id).toMatch(/^med_/);

    const to = await engagedRecipient(t.sender);
    const first = await chat(to, { id, caption: "Your label" });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const second = await call("POST", `/api/v3/${phoneNumberId()}/messages`, {
      token: t.globalToken,
      body: { messaging_product: "whatsapp", to: to.slice(1), type: "image", image: { id } },
    });
    expect(second.status, JSON.stringify(second.body)).toBe(200);

    // One upload for the two sends; both reached the phone with the file's bytes.
    const uploads = uploadsOf(bytes);
    expect(uploads).toHaveLength(1);
    const reached = simulator.acceptedTo(to);
    expect(reached).toHaveLength(2);
    for (const m of reached) expect(m.media?.map((f) => f.sha256)).toEqual([sha(bytes)]);
    const cached = await db.providerMedia.findUniqueOrThrow({
      where: {
        customerId_phoneNumberId_sha256: {
          customerId: t.customer.id,
          phoneNumberId: phoneNumberId(),
          sha256: sha(bytes),
        },
      },
    });
    expect(cached.providerMediaId).toBe(uploads[0]?.id);
    const days = ((cached.expiresAt?.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(28.9);
    expect(days).toBeLessThanOrEqual(29);

    // The stored messages name our id, never the provider's.
    const rows = await db.message.findMany({ where: { customerId: t.customer.id, recipient: to } });
    expect(rows.map((r) => r.mediaId)).toEqual([id, id]);
    for (const r of rows) expect(JSON.stringify(r.payload)).not.toContain(cached.providerMediaId ?? "none");
    // The thread and the report show the file's facts (ours, never the provider's id).
    const facts = {
      mediaId: id,
      kind: "image",
      mimeType: "image/png",
      sha256: sha(bytes),
      fileSize: bytes.length,
      filename: "label.png",
      status: "ready",
    };
    const conversation = await db.conversation.findFirstOrThrow({
      where: { customerId: t.customer.id, contactPhoneNumber: to },
    });
    const thread = await call("GET", `/api/v3/conversations/${conversation.id}/messages`, { token: t.globalToken });
    const sentEntries = thread.body.data.messages.filter((m: { direction: string }) => m.direction === "outbound");
    expect(sentEntries.map((m: { media: unknown }) => m.media)).toEqual([facts, { ...facts, caption: "Your label" }]);
    const report = await call("GET", "/api/v3/reports/messages", {
      token: t.globalToken,
      query: { messageUid: first.body.data.messageUid },
    });
    expect(report.body.data.messages[0].media).toEqual({ ...facts, caption: "Your label" });

    // Its message.status.accepted event, then the provider's statuses of both sends: each event
    // carries the id and the file's facts (the caption is the captioned send's own).
    const captioned = rows.find((r) => r.id === first.body.data.messageUid)?.providerMessageId ?? "";
    const bare = rows.find((r) => r.id !== first.body.data.messageUid)?.providerMessageId ?? "";
    const withCaption = { ...facts, caption: "Your label" };
    const accepted = await db.webhookEvent.findUniqueOrThrow({ where: { dedupeKey: `status:${captioned}:accepted` } });
    expect(dataOf(accepted.payload)).toMatchObject({ mediaId: id, media: withCaption });
    const callback = statusBody(t.sender, [
      { id: captioned, status: "sent" },
      { id: captioned, status: "delivered" },
      { id: captioned, status: "read" },
      { id: bare, status: "failed", errors: [{ code: 131053, title: "Media upload error" }] },
    ]);
    expect((await postProvider(callback)).status).toBe(200);
    while ((await processPendingCallbacks(200)).callbacks > 0);
    for (const status of ["sent", "delivered", "read"]) {
      const event = await db.webhookEvent.findUniqueOrThrow({ where: { dedupeKey: `status:${captioned}:${status}` } });
      expect(dataOf(event.payload), status).toMatchObject({ status, mediaId: id, media: withCaption });
    }
    const failed = await db.webhookEvent.findUniqueOrThrow({ where: { dedupeKey: `status:${bare}:failed` } });
    expect(dataOf(failed.payload)).toMatchObject({ status: "failed", mediaId: id, media: facts });
    expect(dataOf(failed.payload).media).not.toHaveProperty("caption");
  });
});

/** An event's data (the stored payload is the body a destination gets, or its data). */
const dataOf = (payload: unknown): Record<string, unknown> => {
  const p = payload as { data?: Record<string, unknown> } & Record<string, unknown>;
  return p.data ?? p;
};

describe("the provider's copy", () => {
  it("uploads again once the cached id expired, and once per sender", async () => {
    const bytes = samples.pdf(`Manual ${Date.now()}`);
    const id = (await providerUpload(bytes, "manual.pdf", "application/pdf")).body.id as string;
    const to = await engagedRecipient(t.sender);
    const send = () => chat(to, { id, filename: "manual.pdf" }, { type: "document" });
    expect((await send()).status).toBe(200);
    expect(uploadsOf(bytes)).toHaveLength(1);

    await db.providerMedia.updateMany({
      where: { customerId: t.customer.id, sha256: sha(bytes) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect((await send()).status).toBe(200);
    expect(uploadsOf(bytes)).toHaveLength(2);
    expect((await send()).status).toBe(200);
    expect(uploadsOf(bytes)).toHaveLength(2);
    const last = simulator.acceptedTo(to).at(-1);
    expect(last?.media?.[0]?.id).toBe(uploadsOf(bytes)[1]?.id);

    // The account's other sender gets its own upload of the same file.
    const other = await engagedRecipient(t.otherSender);
    const fromOther = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { senderId: t.otherSender.phoneNumber, to: other, type: "document", media: { id } },
    });
    expect(fromOther.status, JSON.stringify(fromOther.body)).toBe(200);
    expect(uploadsOf(bytes, t.otherSender.phoneNumberId ?? "")).toHaveLength(1);
  });

  it("shares one upload between concurrent sends", async () => {
    const bytes = await samples.jpeg(90, 60);
    const id = (await providerUpload(bytes, "p.jpg", "image/jpeg")).body.id as string;
    const to = await engagedRecipient(t.sender);
    const answers = await Promise.all([1, 2, 3, 4].map(() => chat(to, { id })));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    expect(uploadsOf(bytes)).toHaveLength(1);
  });
});

describe("refusals before anything is sent or billed", () => {
  it("another account's id, a number-scoped token's other sender, a deleted file: MEDIA_NOT_FOUND", async () => {
    const stranger = await createTestCustomer();
    const theirs = (
      await providerUpload(await samples.jpeg(30, 30), "x.jpg", "image/jpeg", {
        token: stranger.globalToken,
        id: stranger.sender.phoneNumberId ?? "",
      })
    ).body.id as string;
    const to = await engagedRecipient(t.sender);
    const before = await messagesSent();
    const foreign = await chat(to, { id: theirs });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("MEDIA_NOT_FOUND");

    // A file of the other sender, sent with the first sender's number-scoped token.
    const otherFile = (
      await providerUpload(samples.pdf("Other sender's"), "o.pdf", "application/pdf", {
        id: t.otherSender.phoneNumberId ?? "",
      })
    ).body.id as string;
    const scoped = await chat(to, { id: otherFile }, { token: t.scopedToken, type: "document" });
    expect(scoped.status).toBe(404);
    expect(scoped.body.error_code).toBe("MEDIA_NOT_FOUND");

    // The provider-shaped route answers in the provider's shape.
    const provider = await call("POST", `/api/v3/${phoneNumberId()}/messages`, {
      token: t.globalToken,
      body: { messaging_product: "whatsapp", to: to.slice(1), type: "image", image: { id: theirs } },
    });
    expect(provider.status).toBe(404);
    expect(provider.body.error).toMatchObject({ message: expect.stringContaining(theirs) });

    const mine = (await providerUpload(await samples.jpeg(31, 31), "y.jpg", "image/jpeg")).body.id as string;
    expect((await call("DELETE", `/api/v3/media/${mine}`, { token: t.globalToken })).status).toBe(200);
    const deleted = await chat(to, { id: mine });
    expect(deleted.body.error_code).toBe("MEDIA_NOT_FOUND");
    expect(await messagesSent()).toBe(before);
  });

  it("a file not ready is MEDIA_NOT_READY; a file of another kind MEDIA_TYPE_NOT_SUPPORTED; id and link together 400", async () => {
    const to = await engagedRecipient(t.sender);
    const before = await messagesSent();
    const id = (await providerUpload(samples.pdf("Pending"), "p.pdf", "application/pdf")).body.id as string;
    const asImage = await chat(to, { id });
    expect(asImage.status).toBe(415);
    expect(asImage.body).toMatchObject({
      error_code: "MEDIA_TYPE_NOT_SUPPORTED",
      details: { mediaId: id, kind: "document", expected: "image" },
    });

    await db.media.update({ where: { id }, data: { status: "pending" } });
    const pending = await chat(to, { id }, { type: "document" });
    expect(pending.status).toBe(409);
    expect(pending.body).toMatchObject({ error_code: "MEDIA_NOT_READY", details: { status: "pending" } });

    const both = await chat(to, { id, link: "https://example.com/a.pdf" }, { type: "document" });
    expect(both.status).toBe(400);
    expect(both.body.error_code).toBe("VALIDATION_FAILED");
    expect(await messagesSent()).toBe(before);
  });
});

/** An approved template with a media header and one body parameter. */
async function headerTemplate(format: "IMAGE" | "DOCUMENT") {
  return db.template.create({
    data: {
      customerId: t.customer.id,
      name: `label_${format.toLowerCase()}_${Date.now()}`,
      language: "en",
      category: "UTILITY",
      status: "APPROVED",
      source: "MANUAL",
      providerTemplateId: String(10n ** 14n + BigInt(Date.now() % 1_000_000)),
      components: [
        { type: "HEADER", format, example: { header_handle: ["4::aW1hZ2U="] } },
        { type: "BODY", text: "Hello {{1}}, here it is", example: { body_text: [["Ana"]] } },
      ],
    },
  });
}

const headerComponents = (kind: string, file: Record<string, unknown>) => [
  { type: "header", parameters: [{ type: kind, [kind]: file }] },
  { type: "body", parameters: [{ type: "text", text: "Ana" }] },
];

describe("template media headers and broadcasts", () => {
  it("sends a template whose image header names a file by id or by link", async () => {
    const template = await headerTemplate("IMAGE");
    const bytes = await samples.jpeg(120, 80);
    const id = (await providerUpload(bytes, "header.jpg", "image/jpeg")).body.id as string;
    const to = `+1555${String(Date.now()).slice(-7)}`;
    const send = (file: Record<string, unknown>) =>
      call("POST", "/api/v3/send", {
        token: t.globalToken,
        body: { to, template: { name: template.name, language: "en", components: headerComponents("image", file) } },
      });
    const byId = await send({ id });
    expect(byId.status, JSON.stringify(byId.body)).toBe(200);
    const row = await db.message.findUniqueOrThrow({ where: { id: byId.body.data.messageUid } });
    expect(row.mediaId).toBe(id);
    expect(
      simulator
        .acceptedTo(to)
        .at(-1)
        ?.media?.map((f) => f.sha256),
    ).toEqual([sha(bytes)]);

    const byLink = await send({ link: "https://example.com/header.jpg" });
    expect(byLink.status).toBe(200);
    expect((await db.message.findUniqueOrThrow({ where: { id: byLink.body.data.messageUid } })).mediaId).toBeNull();

    const pdf = (await providerUpload(samples.pdf("Not an image"), "n.pdf", "application/pdf")).body.id as string;
    const wrongKind = await send({ id: pdf });
    expect(wrongKind.status).toBe(415);
    expect(wrongKind.body.error_code).toBe("MEDIA_TYPE_NOT_SUPPORTED");
  });

  it("a broadcast maps its header file once: every recipient gets it, the provider gets one upload", async () => {
    const template = await headerTemplate("DOCUMENT");
    const bytes = samples.pdf(`Catalogue ${Date.now()}`);
    const id = (await providerUpload(bytes, "catalogue.pdf", "application/pdf")).body.id as string;
    const recipients = [1, 2, 3, 4, 5].map((i) => `+1555${String(Date.now() + i).slice(-7)}`);
    const broadcast = (header: unknown[]) => ({
      name: "Catalogue",
      template: { name: template.name, language: "en" },
      audience: { phoneNumbers: recipients },
      variables: { body: [{ source: "constant", value: "there" }], header },
    });
    const created = await call("POST", "/api/v3/broadcasts", {
      token: t.globalToken,
      body: { broadcast: broadcast([{ source: "constant", value: id }]) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const uid = created.body.data.broadcastUid as string;
    const started = await call("POST", `/api/v3/broadcasts/${uid}/start`, { token: t.globalToken, body: {} });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    for (let i = 0; i < 100; i++) {
      await dispatchOnce({ customerIds: [t.customer.id] });
      if ((await db.broadcast.findUniqueOrThrow({ where: { id: uid } })).status !== "SENDING") break;
    }
    const sent = await db.message.findMany({ where: { broadcastId: uid } });
    expect(sent.map((m) => m.mediaId)).toEqual(recipients.map(() => id));
    for (const to of recipients) {
      expect(simulator.acceptedTo(to).map((m) => m.media?.[0]?.sha256)).toEqual([sha(bytes)]);
    }
    expect(uploadsOf(bytes)).toHaveLength(1);

    // A header file that is not the caller's, or a field mapping, is refused when saved.
    const stranger = await createTestCustomer();
    const theirs = (
      await providerUpload(samples.pdf("Theirs"), "t.pdf", "application/pdf", {
        token: stranger.globalToken,
        id: stranger.sender.phoneNumberId ?? "",
      })
    ).body.id as string;
    const foreign = await call("POST", "/api/v3/broadcasts", {
      token: t.globalToken,
      body: { broadcast: broadcast([{ source: "constant", value: theirs }]) },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error_code).toBe("MEDIA_NOT_FOUND");
    const perContact = await call("POST", "/api/v3/broadcasts", {
      token: t.globalToken,
      body: { broadcast: broadcast([{ source: "field", key: "file" }]) },
    });
    expect(perContact.status).toBe(400);
    expect(perContact.body.details.fields[0].path).toBe("body.broadcast.variables.header");
  });
});
