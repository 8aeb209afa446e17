// The inbox's media routes (docs/media.md "Inbox"): the API's content and upload routes served
// to the member's session by the dashboard's catch-all (app/api/dashboard/[...path]), the bytes
// with the API content route's headers, and the reply box's upload; each role as
// the permission table says (owners, admins, agents; developers and billing are refused),
// an agent limited to one sender only that sender's files, another account's never.
// The handlers run for real; only next-auth's session read is replaced.
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "@/lib/domains/auth/permissions";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import * as samples from "@/test/media-samples";
import { createMemberOf, type TestMember } from "@/test/member-fixtures";
import { nextRequest } from "@/test/next-request-double";

const contentRoute = await import("@/app/api/dashboard/[...path]/route");
const uploadRoute = await import("@/app/api/dashboard/[...path]/route");

const ORIGIN = "http://dash.test";
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

function read(as: TestMember | null, mediaId: string, headers: Record<string, string> = {}) {
  nextRequest.session = as?.session ?? null;
  const request = new Request(`${ORIGIN}/api/dashboard/media/${mediaId}/content`, {
    headers: { Host: "dash.test", ...headers },
  });
  return contentRoute.GET(request);
}

function upload(as: TestMember, bytes: Buffer, name: string, fields: Record<string, string>, origin = ORIGIN) {
  nextRequest.session = as.session;
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set("file", new Blob([new Uint8Array(bytes)]), name);
  return uploadRoute.POST(
    new Request(`${ORIGIN}/api/dashboard/media`, {
      method: "POST",
      headers: { Host: "dash.test", Origin: origin },
      body: form,
    }),
  );
}

let t: TestCustomer;
let other: TestCustomer;
const members = {} as Record<Role, TestMember>;
let otherAgent: TestMember;
let stranger: TestMember;
let photo: Buffer;
let mine: string; // on t.sender, the agent's
let theirs: string; // on t.otherSender

async function apiUpload(c: TestCustomer, bytes: Buffer, name: string, senderId: string): Promise<string> {
  const form = new FormData();
  form.set("senderId", senderId);
  form.set("file", new Blob([new Uint8Array(bytes)]), name);
  const res = await call("POST", "/api/v3/media", { token: c.globalToken, form });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.mediaId;
}

beforeAll(async () => {
  t = await createTestCustomer();
  other = await createTestCustomer();
  for (const role of ["owner", "admin", "developer", "billing"] as const) {
    members[role] = await createMemberOf(t.customer.id, role);
  }
  members.agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
  otherAgent = await createMemberOf(t.customer.id, "agent", [t.otherSender.phoneNumber]);
  stranger = await createMemberOf(other.customer.id, "owner");
  photo = await samples.jpeg(120, 90);
  mine = await apiUpload(t, photo, "broken handle.jpg", t.sender.phoneNumber);
  theirs = await apiUpload(t, samples.pdf(), "label.pdf", t.otherSender.phoneNumber);
});

describe("GET /api/dashboard/media/{mediaId}/content", () => {
  it.each(["owner", "admin", "agent"] as const)(
    "%s reads the bytes with the API content route's headers",
    async (role) => {
      const res = await read(members[role], mine);
      expect(res.status).toBe(200);
      expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), photo)).toBe(0);
      expect(Object.fromEntries(res.headers)).toMatchObject({
        "content-type": "image/jpeg",
        "content-length": String(photo.length),
        etag: `"${sha(photo)}"`,
        "x-content-type-options": "nosniff",
        "cache-control": "private, max-age=300",
        "accept-ranges": "bytes",
        "content-disposition": `inline; filename="broken handle.jpg"; filename*=UTF-8''broken%20handle.jpg`,
      });
    },
  );

  it.each(["developer", "billing"] as const)("%s is refused: the role does not read conversations", async (role) => {
    const res = await read(members[role], mine);
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error_code: "PERMISSION_DENIED", details: { permission: "inbox" } });
  });

  it("without a session: 401", async () => {
    expect((await read(null, mine)).status).toBe(401);
  });

  it("an agent reads their senders' files only; the owner reads both", async () => {
    const res = await read(members.agent, theirs);
    expect(res.status).toBe(404);
    expect((await res.json()).error_code).toBe("MEDIA_NOT_FOUND");
    expect((await read(otherAgent, theirs)).status).toBe(200);
    expect((await read(otherAgent, mine)).status).toBe(404);
    const owner = await read(members.owner, theirs);
    expect(owner.status).toBe(200);
    expect(owner.headers.get("content-disposition")).toMatch(/^attachment; filename="label.pdf"/);
  });

  it("another account's member never reads the file", async () => {
    const res = await read(stranger, mine);
    expect(res.status).toBe(404);
    expect((await res.json()).error_code).toBe("MEDIA_NOT_FOUND");
  });

  it("a Range is a 206 and a matching ETag a 304, as on the API", async () => {
    const part = await read(members.agent, mine, { Range: "bytes=0-9" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 0-9/${photo.length}`);
    expect(Buffer.compare(Buffer.from(await part.arrayBuffer()), photo.subarray(0, 10))).toBe(0);
    expect((await read(members.agent, mine, { "If-None-Match": `"${sha(photo)}"` })).status).toBe(304);
  });
});

describe("POST /api/dashboard/media", () => {
  it("an agent uploads to their sender: the file's facts, then readable by them", async () => {
    const bytes = await samples.jpeg(64, 64);
    const res = await upload(members.agent, bytes, "receipt.jpg", { senderId: t.sender.phoneNumber });
    expect(res.status).toBe(201);
    const { data: media } = await res.json();
    expect(media).toMatchObject({
      kind: "image",
      mimeType: "image/jpeg",
      sha256: sha(bytes),
      fileSize: bytes.length,
      filename: "receipt.jpg",
      status: "ready",
      senderId: t.sender.phoneNumber,
    });
    expect((await read(members.agent, media.mediaId)).status).toBe(200);
  });

  it("an agent cannot upload for another sender; refusals carry the API's codes and messages", async () => {
    const bytes = await samples.jpeg(32, 32);
    const elsewhere = await upload(members.agent, bytes, "x.jpg", { senderId: t.otherSender.phoneNumber });
    expect(elsewhere.status).toBe(403);
    expect((await elsewhere.json()).error_code).toBe("SENDER_NOT_ALLOWED");

    const big = await upload(members.agent, await samples.noisePng(1400), "huge.png", {
      senderId: t.sender.phoneNumber,
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({
      error_code: "MEDIA_TOO_LARGE",
      message: "This image is larger than 5 MB, the largest image the provider takes",
      details: { kind: "image", maxBytes: 5_000_000 },
    });

    const exe = await upload(members.agent, Buffer.from("MZ\x90\x00binary"), "tool.exe", {
      senderId: t.sender.phoneNumber,
    });
    expect(exe.status).toBe(415);
    expect((await exe.json()).error_code).toBe("MEDIA_TYPE_NOT_SUPPORTED");
  });

  it("a member's upload names its sender (a token's may leave it to the default sender)", async () => {
    const res = await upload(members.owner, await samples.jpeg(16, 16), "a.jpg", {});
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error_code: "VALIDATION_FAILED",
      message: "Name the sender the file is for (senderId)",
    });
  });

  it("a token gets the API's routes as they were: its permissions, no session, signed links", async () => {
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await samples.jpeg(16, 16))]), "b.jpg");
    const stored = await call("POST", "/api/v3/media", { token: t.globalToken, form });
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
    expect(stored.body.data.senderId).toBe(t.sender.phoneNumber);
    const bytes = await call("GET", `/api/v3/media/${mine}/content`, { token: t.globalToken });
    expect(bytes.status).toBe(200);
  });

  it("developers and billing members are refused before the body is read; a cross-site post too", async () => {
    const bytes = await samples.jpeg(16, 16);
    for (const role of ["developer", "billing"] as const) {
      const res = await upload(members[role], bytes, "a.jpg", { senderId: t.sender.phoneNumber });
      expect(res.status).toBe(403);
      expect((await res.json()).details).toEqual({ permission: "inbox" });
    }
    const forged = await upload(members.owner, bytes, "a.jpg", { senderId: t.sender.phoneNumber }, "https://evil.test");
    expect(forged.status).toBe(403);
    expect((await forged.json()).error_code).toBe("CROSS_ORIGIN_REQUEST");
  });
});
