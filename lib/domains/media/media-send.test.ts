// Sends by mediaId through the real router (docs/media.md "Sending media"): a file uploaded on
// the provider route and sent by id on /chat and on the provider-shaped route, uploaded to the
// provider for the sender once (the simulator keeps what it was sent), re-uploaded after the
// cached id expires and per sender; another account's or another sender's file, a file not
// ready or of another kind refused before anything is sent or billed; the facts in the
// thread and the report. On both storage engines (the upload to the provider reads the store).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { setProvider } from "@/lib/domains/provider/client";
import { ProviderSimulator, simulatorOptionsFromEnv } from "@/lib/domains/provider/simulator";
import { setStorage } from "@/lib/storage";
import { recordApiAnswers } from "@/test/api-answers";
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
  simulator = new ProviderSimulator({ ...simulatorOptionsFromEnv(), replyRate: 0 });
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
  });
});

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
