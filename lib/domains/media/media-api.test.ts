// The media routes through the real router (docs/media.md "API"), on both storage engines
// (the local folder, and S3 against the run's s3rver process): uploads, facts, bytes (Range,
// ETag, nosniff), deletion, every refusal (the kinds' limits, stickers, the account's quota:
// each leaves nothing in the folder or the bucket, no record, the usage as it was), and tenant
// and sender isolation.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { db } from "@/lib/db";
import { setStorage, stagingDir } from "@/lib/storage";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import * as samples from "@/test/media-samples";
import { memberPrincipal } from "@/test/member-fixtures";
import { STORAGE_ENGINES } from "@/test/s3-store";
import { objectKey } from "./objects";
import { mediaUsage } from "./service";

recordApiAnswers();

// A data folder of its own: it counts the files left in the staging folder, and files of the
// other files upload beside it in the run's folder (vitest.config.ts).
// The run's folder is put back for the files after this one, which share its process, and
// so is the process's store (lib/storage/index.ts keeps one): left on this folder, removed
// below, it made a later file's reads miss every file its workers had kept (media-crash).
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-media-api-"));
const runDataDir = process.env.DATA_DIR;
process.env.DATA_DIR = dataDir;
resetEnvCache();
setStorage(undefined);
afterAll(() => {
  process.env.DATA_DIR = runDataDir;
  resetEnvCache();
  setStorage(undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function form(bytes: Buffer, name: string, type?: string, fields: Record<string, string> = {}): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  f.set("file", new Blob([new Uint8Array(bytes)], type ? { type } : {}), name);
  return f;
}

let t: TestCustomer;
let other: TestCustomer;
beforeAll(async () => {
  t = await createTestCustomer();
  other = await createTestCustomer();
});

const upload = (
  bytes: Buffer,
  name: string,
  options: { token?: string; type?: string; fields?: Record<string, string>; version?: string } = {},
) =>
  call("POST", `/api/${options.version ?? "v3"}/media`, {
    token: options.token ?? t.globalToken,
    form: form(bytes, name, options.type, options.fields),
  });

const stagingLeft = () => (fs.existsSync(stagingDir()) ? fs.readdirSync(stagingDir()) : []);

describe.each(STORAGE_ENGINES)("on the $engine engine", ({ store: make, keys }) => {
  const store = make();
  beforeAll(() => setStorage(store));
  afterAll(() => setStorage(undefined));
  afterEach(() => {
    delete process.env.MEDIA_QUOTA_MB;
    resetEnvCache();
  });

  /** An account of its own: its files in the store, its records and its usage start empty. */
  async function freshAccount() {
    const c = await createTestCustomer();
    const owner = memberPrincipal(c.customer.id);
    const up = (bytes: Buffer, name: string, type?: string) => upload(bytes, name, { token: c.globalToken, type });
    /** What a user (or an operator) checks after a refusal: the files kept, the records, the usage. */
    const kept = async () => ({
      keys: await keys(c.customer.id),
      records: await db.media.count({ where: { customerId: c.customer.id } }),
      usage: await mediaUsage(owner),
    });
    const keyOf = (bytes: Buffer) => objectKey(c.customer.id, sha(bytes));
    return { c, up, kept, keyOf };
  }

  it("stores an upload typed from its bytes and serves its facts and bytes", async () => {
    const bytes = await samples.jpeg(320, 240);
    const res = await upload(bytes, "broken handle.jpg", { type: "image/jpeg" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const media = res.body.data;
    expect(media).toMatchObject({
      kind: "image",
      mimeType: "image/jpeg",
      sha256: sha(bytes),
      fileSize: bytes.length,
      filename: "broken handle.jpg",
      source: "upload",
      status: "ready",
      senderId: t.sender.phoneNumber,
    });
    expect(media.mediaId).toMatch(/^med_[0-9a-f]{32}$/);
    expect(await store.stat(objectKey(t.customer.id, sha(bytes)))).toEqual({ size: bytes.length });

    const facts = await call("GET", `/api/v3/media/${media.mediaId}`, { token: t.globalToken });
    expect(facts.body.data).toEqual(media);
    const content = await call("GET", `/api/v3/media/${media.mediaId}/content`, { token: t.globalToken });
    expect(content.status).toBe(200);
    expect(Buffer.compare(content.body, bytes)).toBe(0);
    expect(Object.fromEntries(content.headers)).toMatchObject({
      "content-type": "image/jpeg",
      "content-length": String(bytes.length),
      etag: `"${sha(bytes)}"`,
      "x-content-type-options": "nosniff",
      "cache-control": "private, max-age=300",
      "accept-ranges": "bytes",
      "content-disposition": `inline; filename="broken handle.jpg"; filename*=UTF-8''broken%20handle.jpg`,
    });
  });

  it("serves one Range as 206, a range outside the file as 416, a known ETag as 304, HEAD without a body", async () => {
    const bytes = samples.pdf("Range test", 20_000);
    const { mediaId } = (await upload(bytes, "manual.pdf")).body.data;
    const url = `/api/v3/media/${mediaId}/content`;
    const part = await call("GET", url, { token: t.globalToken, headers: { Range: "bytes=100-199" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 100-199/${bytes.length}`);
    expect(Buffer.compare(part.body, bytes.subarray(100, 200))).toBe(0);
    const tail = await call("GET", url, { token: t.globalToken, headers: { Range: "bytes=-10" } });
    expect(Buffer.compare(tail.body, bytes.subarray(-10))).toBe(0);
    const outside = await call("GET", url, { token: t.globalToken, headers: { Range: `bytes=${bytes.length}-` } });
    expect(outside.status).toBe(416);
    expect(outside.body.error_code).toBe("RANGE_NOT_SATISFIABLE");
    expect(outside.headers.get("content-range")).toBe(`bytes */${bytes.length}`);
    const cached = await call("GET", url, { token: t.globalToken, headers: { "If-None-Match": `"${sha(bytes)}"` } });
    expect(cached.status).toBe(304);
    const head = await call("HEAD", url, { token: t.globalToken });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(bytes.length));
    // A document downloads; the token may be in the query, as on every GET.
    const byQuery = await call("GET", url, { query: { authToken: t.globalToken } });
    expect(byQuery.status).toBe(200);
    expect(byQuery.headers.get("content-disposition")).toMatch(/^attachment; filename="manual.pdf"/);
  });

  it("keeps the same bytes once: two records, one file, removed with the last", async () => {
    const bytes = samples.pdf(`Shared ${randomBytes(4).toString("hex")}`);
    const first = (await upload(bytes, "a.pdf")).body.data;
    const second = (await upload(bytes, "b.pdf", { version: "v2" })).body.data;
    expect(second.mediaId).not.toBe(first.mediaId);
    const object = await db.mediaObject.findUnique({
      where: { customerId_sha256: { customerId: t.customer.id, sha256: sha(bytes) } },
    });
    expect(object?.refs).toBe(2);
    const removed = await call("DELETE", `/api/v3/media/${first.mediaId}`, { token: t.globalToken });
    expect(removed.body.data).toEqual({ mediaId: first.mediaId, deleted: true });
    expect((await call("GET", `/api/v3/media/${first.mediaId}`, { token: t.globalToken })).body.error_code).toBe(
      "MEDIA_NOT_FOUND",
    );
    const still = await call("GET", `/api/v3/media/${second.mediaId}/content`, { token: t.globalToken });
    expect(Buffer.compare(still.body, bytes)).toBe(0);
    await call("DELETE", `/api/v2/media/${second.mediaId}`, { token: t.globalToken });
    expect(await store.stat(objectKey(t.customer.id, sha(bytes)))).toBeNull();
    const again = await call("DELETE", `/api/v3/media/${second.mediaId}`, { token: t.globalToken });
    expect(again.status).toBe(404);
  });

  it("refuses a type the provider does not take, before anything is stored", async () => {
    const a = await freshAccount();
    const cases: [Buffer, string, string | undefined][] = [
      [samples.pdf(), "x.png", "image/png"],
      [randomBytes(5000), "noise.bin", undefined],
    ];
    for (const [bytes, name, type] of cases) {
      const res = await a.up(bytes, name, type);
      expect(res.status, name).toBe(415);
      expect(res.body.error_code, name).toBe("MEDIA_TYPE_NOT_SUPPORTED");
    }
    expect(await a.kept()).toEqual({
      keys: [],
      records: 0,
      usage: { usedBytes: 0, quotaBytes: 5_000_000_000, files: 0 },
    });
    expect(stagingLeft()).toEqual([]);
  });
  it("stickers: 100 KB static, 500 KB animated, to the byte; a refused one leaves nothing", async () => {
    const a = await freshAccount();
    const base = await samples.webpSticker();
    const atLimit = Buffer.concat([base, Buffer.alloc(100_000 - base.length)]);
    const fits = await a.up(atLimit, "ok.webp");
    expect(fits.status, JSON.stringify(fits.body)).toBe(201);
    expect(fits.body.data).toMatchObject({ kind: "sticker", mimeType: "image/webp", fileSize: 100_000 });
    const animated = samples.animatedWebpHeader(300_000);
    expect((await a.up(animated, "wave.webp")).body.data).toMatchObject({ kind: "sticker", fileSize: 300_000 });
    const before = await a.kept();
    expect(before).toEqual({
      keys: [a.keyOf(atLimit), a.keyOf(animated)].sort(),
      records: 2,
      usage: { usedBytes: 400_000, quotaBytes: 5_000_000_000, files: 2 },
    });

    const overStatic = Buffer.concat([atLimit, Buffer.alloc(1)]);
    const overAnimated = samples.animatedWebpHeader(500_001);
    for (const [bytes, maxBytes, words] of [
      [overStatic, 100_000, "100 KB"],
      [overAnimated, 500_000, "500 KB"],
    ] as const) {
      const refused = await a.up(bytes, "big.webp");
      expect(refused.status, words).toBe(413);
      expect(refused.body, words).toMatchObject({
        error_code: "MEDIA_TOO_LARGE",
        message: `This sticker is larger than ${words}, the largest sticker the provider takes`,
        details: { kind: "sticker", maxBytes },
      });
      expect(await store.stat(a.keyOf(bytes))).toBeNull();
    }
    expect(await a.kept()).toEqual(before);
    expect(stagingLeft()).toEqual([]);
  });

  it("each kind's limit: one byte over is 413 with the kind's words, nothing kept, the usage as it was", async () => {
    const a = await freshAccount();
    const kept = await a.up(samples.pdf("kept"), "kept.pdf");
    expect(kept.status).toBe(201);
    const before = await a.kept();
    expect(before.keys).toHaveLength(1);
    // Files the detection types from their first bytes (ISO media, Ogg), padded one byte past the limit.
    const cases: [Buffer, string, string, number, string][] = [
      [await samples.noisePng(1400), "big.png", "image", 5_000_000, "5 MB"],
      [samples.isoMedia("isom", 16_000_001), "long.mp4", "video", 16_000_000, "16 MB"],
      [samples.oggOpus(16_000_001), "long.ogg", "audio", 16_000_000, "16 MB"],
    ];
    for (const [bytes, name, kind, maxBytes, words] of cases) {
      const refused = await a.up(bytes, name);
      expect(refused.status, name).toBe(413);
      expect(refused.body, name).toMatchObject({
        error_code: "MEDIA_TOO_LARGE",
        message: `This ${kind} is larger than ${words}, the largest ${kind} the provider takes`,
        details: { kind, maxBytes },
      });
    }
    expect(await a.kept()).toEqual(before);
    expect(stagingLeft()).toEqual([]);
  });

  it("the account's quota: a file that does not fit is 413 MEDIA_QUOTA_EXCEEDED, nothing kept; the usage the account page shows", async () => {
    process.env.MEDIA_QUOTA_MB = "1";
    resetEnvCache();
    const a = await freshAccount();
    const first = samples.pdf("first", 600_000);
    const kept = await a.up(first, "first.pdf");
    expect(kept.status).toBe(201);
    const one = { keys: [a.keyOf(first)], records: 1, usage: { usedBytes: 600_000, quotaBytes: 1_000_000, files: 1 } };
    expect(await a.kept()).toEqual(one);

    // Past the quota once read: refused with the file's size and the usage before it.
    const second = samples.pdf("second", 600_000);
    const past = await a.up(second, "second.pdf");
    expect(past.status).toBe(413);
    expect(past.body).toMatchObject({
      error_code: "MEDIA_QUOTA_EXCEEDED",
      message:
        "This file (600 KB) does not fit: the account keeps 600 KB of its 1 MB of media; delete files or ask for a larger quota",
      details: { quotaBytes: 1_000_000, usedBytes: 600_000 },
    });
    expect(await a.kept()).toEqual(one);
    expect(await db.media.count({ where: { sha256: sha(second) } })).toBe(0);

    // The same bytes again take no room: a second record of the one file.
    const same = await a.up(first, "copy.pdf");
    expect(same.status).toBe(201);
    expect(await a.kept()).toEqual({ ...one, records: 2 });

    // A file that fills the quota to the byte fits; then even a sticker is refused before it is read.
    const rest = samples.pdf("rest", 400_000);
    expect((await a.up(rest, "rest.pdf")).status).toBe(201);
    const full = {
      keys: [a.keyOf(first), a.keyOf(rest)].sort(),
      records: 3,
      usage: { usedBytes: 1_000_000, quotaBytes: 1_000_000, files: 2 },
    };
    expect(await a.kept()).toEqual(full);
    const sticker = await samples.webpSticker();
    const atQuota = await a.up(sticker, "smile.webp");
    expect(atQuota.status).toBe(413);
    expect(atQuota.body).toMatchObject({
      error_code: "MEDIA_QUOTA_EXCEEDED",
      message: "The account keeps 1 MB of its 1 MB of media; delete files or ask for a larger quota",
      details: { quotaBytes: 1_000_000, usedBytes: 1_000_000 },
    });
    expect(await store.stat(a.keyOf(sticker))).toBeNull();
    expect(await a.kept()).toEqual(full);

    // Deleting one of two records of the same bytes frees nothing; the last frees the file and its room.
    await call("DELETE", `/api/v3/media/${kept.body.data.mediaId}`, { token: a.c.globalToken });
    expect((await a.kept()).usage.usedBytes).toBe(1_000_000);
    await call("DELETE", `/api/v3/media/${same.body.data.mediaId}`, { token: a.c.globalToken });
    expect(await a.kept()).toEqual({
      keys: [a.keyOf(rest)],
      records: 3,
      usage: { usedBytes: 400_000, quotaBytes: 1_000_000, files: 1 },
    });
    expect((await a.up(sticker, "smile.webp")).status).toBe(201);
    // Another account's files are not this one's.
    expect((await mediaUsage(memberPrincipal((await createTestCustomer()).customer.id))).files).toBe(0);
    expect(stagingLeft()).toEqual([]);
  });
});

describe("kinds, forms and who sees what (local engine)", () => {
  it("every kind of the table: video, audio (a voice note), documents, text", async () => {
    const cases: [Buffer, string, string | undefined, string, string][] = [
      [samples.isoMedia("isom"), "clip.mp4", undefined, "video", "video/mp4"],
      [samples.isoMedia("3gp4"), "clip.3gp", undefined, "video", "video/3gpp"],
      [samples.isoMedia("M4A "), "memo.m4a", undefined, "audio", "audio/mp4"],
      [samples.isoMedia("isom"), "memo.mp4", "audio/mp4", "audio", "audio/mp4"],
      [samples.oggOpus(), "voice.ogg", "audio/ogg", "audio", "audio/ogg"],
      [samples.mp3(), "song.mp3", undefined, "audio", "audio/mpeg"],
      [
        samples.docx(),
        "terms.docx",
        undefined,
        "document",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      ],
      [samples.text(), "tracking.txt", "text/plain", "document", "text/plain"],
    ];
    for (const [bytes, name, type, kind, mimeType] of cases) {
      const res = await upload(bytes, name, { type });
      expect(res.body.data, name).toMatchObject({ kind, mimeType });
    }
  });

  it("a form without a file, a JSON body, two files, a type declared after the file", async () => {
    const none = new FormData();
    none.set("type", "image/png");
    const missing = await call("POST", "/api/v3/media", { token: t.globalToken, form: none });
    expect(missing.status).toBe(400);
    expect(missing.body.error_code).toBe("VALIDATION_FAILED");
    expect(missing.body.details.fields).toContainEqual(expect.objectContaining({ path: "body.file" }));
    const json = await call("POST", "/api/v3/media", { token: t.globalToken, body: { file: "x" } });
    expect(json.status).toBe(415);
    expect(json.body.error_code).toBe("UNSUPPORTED_CONTENT_TYPE");
    const two = form(await samples.jpeg(), "a.jpg");
    two.append("file", new Blob([new Uint8Array(await samples.jpeg())]), "b.jpg");
    expect((await call("POST", "/api/v3/media", { token: t.globalToken, form: two })).status).toBe(400);
    // What stock SDKs send: messaging_product, file, then type.
    const late = new FormData();
    late.set("messaging_product", "whatsapp");
    late.set("file", new Blob([new Uint8Array(samples.pdf())]), "label.png");
    late.set("type", "image/png");
    const refused = await call("POST", "/api/v3/media", { token: t.globalToken, form: late });
    expect(refused.status).toBe(415);
    expect(refused.body.message).toBe("The file's bytes are application/pdf, not image/png");
    expect(stagingLeft()).toEqual([]);
  });

  it("another account's media is not found; a number-scoped token sees its own sender's only", async () => {
    const mine = (await upload(await samples.jpeg(), "mine.jpg", { fields: { senderId: t.otherSender.phoneNumber } }))
      .body.data;
    expect(mine.senderId).toBe(t.otherSender.phoneNumber);
    for (const [method, url] of [
      ["GET", `/api/v3/media/${mine.mediaId}`],
      ["GET", `/api/v3/media/${mine.mediaId}/content`],
      ["DELETE", `/api/v3/media/${mine.mediaId}`],
      ["GET", `/api/v3/${mine.mediaId}`],
      ["DELETE", `/api/v3/${mine.mediaId}`],
    ] as const) {
      for (const token of [other.globalToken, t.scopedToken]) {
        const res = await call(method, url, { token });
        expect(res.status, `${method} ${url}`).toBe(404);
        expect(res.body.error_code ?? res.body.error?.error_data?.error_code, `${method} ${url}`).toBe(
          "MEDIA_NOT_FOUND",
        );
      }
    }
    expect((await call("GET", `/api/v3/media/${mine.mediaId}`, { token: t.globalToken })).status).toBe(200);
    // A number-scoped token uploads for its own sender, and may not name another.
    const scoped = await upload(await samples.jpeg(), "scoped.jpg", { token: t.scopedToken });
    expect(scoped.body.data.senderId).toBe(t.sender.phoneNumber);
    expect((await call("GET", `/api/v3/media/${scoped.body.data.mediaId}`, { token: t.scopedToken })).status).toBe(200);
    const elsewhere = await upload(await samples.jpeg(), "x.jpg", {
      token: t.scopedToken,
      fields: { senderId: t.otherSender.phoneNumber },
    });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    // An id this service never issued.
    expect((await call("GET", "/api/v3/media/not a media", { token: t.globalToken })).body.error_code).toBe(
      "MEDIA_NOT_FOUND",
    );
  });
});

describe("the provider-shaped media routes", () => {
  const graphForm = (bytes: Buffer, type: string) => {
    const f = new FormData();
    f.set("messaging_product", "whatsapp");
    f.set("file", new Blob([new Uint8Array(bytes)], { type }), "photo.png");
    f.set("type", type);
    return f;
  };

  it("uploads for a phone number id, describes with a 5-minute link that still needs the token, deletes", async () => {
    const bytes = await samples.noisePng(64);
    const up = await call("POST", `/api/v3/${t.sender.phoneNumberId}/media`, {
      token: t.globalToken,
      form: graphForm(bytes, "image/png"),
    });
    expect(up.status).toBe(200);
    expect(Object.keys(up.body)).toEqual(["id"]);
    const info = await call("GET", `/api/v3/${up.body.id}`, {
      token: t.globalToken,
      query: { phone_number_id: t.sender.phoneNumberId ?? "" },
    });
    expect(info.body).toMatchObject({
      messaging_product: "whatsapp",
      mime_type: "image/png",
      sha256: sha(bytes),
      file_size: String(bytes.length),
      id: up.body.id,
    });
    const link = new URL(info.body.url);
    expect(link.pathname).toBe(`/api/v3/media/${up.body.id}/content`);
    const query = Object.fromEntries(link.searchParams);
    const got = await call("GET", link.pathname, { token: t.globalToken, query });
    expect(Buffer.compare(got.body, bytes)).toBe(0);
    expect((await call("GET", link.pathname, { query })).status).toBe(401);
    const forged = await call("GET", link.pathname, { token: t.globalToken, query: { ...query, signature: "x" } });
    expect(forged.body.error_code).toBe("MEDIA_NOT_FOUND");
    const past = await call("GET", link.pathname, {
      token: t.globalToken,
      query: { ...query, expires: String(Math.floor(Date.now() / 1000) - 1) },
    });
    expect(past.status).toBe(404);
    const gone = await call("DELETE", `/api/v3/${up.body.id}`, { token: t.globalToken });
    expect(gone.body).toEqual({ success: true });
    const again = await call("GET", `/api/v3/${up.body.id}`, { token: t.globalToken });
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ error_data: { error_code: "MEDIA_NOT_FOUND" } });
  });

  it("refuses in the provider's shape; GET /{phoneNumberId} still reads the phone number", async () => {
    const refused = await call("POST", `/api/v3/${t.sender.phoneNumberId}/media`, {
      token: t.globalToken,
      form: graphForm(samples.pdf(), "image/png"),
    });
    expect(refused.status).toBe(415);
    expect(refused.body.error).toMatchObject({ error_data: { error_code: "MEDIA_TYPE_NOT_SUPPORTED" } });
    const number = await call("GET", `/api/v3/${t.sender.phoneNumberId}`, { token: t.globalToken });
    expect(number.body).toMatchObject({ id: t.sender.phoneNumberId });
  });
});

it("leaves no staging file behind", () => {
  expect(stagingLeft()).toEqual([]);
  expect(fs.existsSync(path.join(stagingDir(), ".."))).toBe(true);
});
