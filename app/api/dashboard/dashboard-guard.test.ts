// The dashboard's fetches through the router's session mount (app/api/dashboard/[...path]): mutations only from our
// own pages, as JSON, with bounded bodies and the same input rules as the public API.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Principal } from "@/lib/domains/auth/principal";
import { createContactBook } from "@/lib/domains/contacts/books";
import { createTestCustomer, type TestCustomer } from "@/test/factory";
import { nextRequest } from "@/test/next-request-double";

const { POST: sendMessage } = await import("./[...path]/route");
const { POST: bulkUpload } = await import("./[...path]/route");

let c: TestCustomer;
let bookUid: string;
beforeAll(async () => {
  c = await createTestCustomer();
  nextRequest.principal = {
    customerId: c.customer.id,
    plan: c.customer.plan,
    via: "session",
    userId: "user-test",
    sessionId: "session-test",
    scopedSenderId: null,
    member: { userId: "user-test", email: "user-test@example.com", name: null, role: "owner", senderIds: null },
  } as Principal;
  bookUid = (await createContactBook(nextRequest.principal, { name: "Guarded", status: "ACTIVE" } as never)).id;
});
beforeEach(() => {
  nextRequest.principalAsked = 0;
});

const ORIGIN = "http://dash.test";
const sameSite = { Origin: ORIGIN, "Sec-Fetch-Site": "same-origin", "Content-Type": "application/json" };

function post(path: string, headers: Record<string, string>, body: BodyInit) {
  return new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { Host: "dash.test", ...headers },
    body,
    // @ts-expect-error Node's fetch needs duplex for streamed bodies
    duplex: "half",
  });
}
const composer = (headers: Record<string, string>, body: unknown) =>
  sendMessage(post("/api/dashboard/messages", headers, typeof body === "string" ? body : JSON.stringify(body)));
const upload = (headers: Record<string, string>, body: BodyInit) =>
  bulkUpload(post(`/api/dashboard/contact-books/${bookUid}/contacts/bulk`, headers, body));

const validText = () => ({ mode: "session", senderId: c.sender.phoneNumber, to: "+447700900000", text: "" });

describe("dashboard mutations refuse forged requests", () => {
  it.each([
    ["a foreign Origin", { Origin: "https://evil.example", "Content-Type": "application/json" }],
    [
      "Sec-Fetch-Site cross-site",
      { Origin: ORIGIN, "Sec-Fetch-Site": "cross-site", "Content-Type": "application/json" },
    ],
    [
      "Sec-Fetch-Site same-site (a sibling subdomain)",
      { "Sec-Fetch-Site": "same-site", "Content-Type": "application/json" },
    ],
    ["Origin null", { Origin: "null", "Content-Type": "application/json" }],
    ["neither Origin nor Sec-Fetch-Site", { "Content-Type": "application/json" }],
  ])("%s: 403 before the session is read", async (_what, headers) => {
    for (const res of [await composer(headers, validText()), await upload(headers, '{"contacts":[]}')]) {
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, error_code: "CROSS_ORIGIN_REQUEST" });
    }
    expect(nextRequest.principalAsked).toBe(0);
  });

  it("text/plain (a cross-site form's type) is 415 even from our origin", async () => {
    const headers = { ...sameSite, "Content-Type": "text/plain" };
    expect((await composer(headers, validText())).status).toBe(415);
    expect((await upload(headers, '{"contacts":[{"phoneNumber":"+447700900001"}]}')).status).toBe(415);
  });

  it("our own page's request goes through (Origin alone, as older browsers send it, too)", async () => {
    const res = await upload(sameSite, JSON.stringify({ contacts: [{ phoneNumber: "+447700900002" }] }));
    expect(res.status).toBe(200);
    const { "Sec-Fetch-Site": _omit, ...originOnly } = sameSite;
    const again = await upload(originOnly, JSON.stringify({ contacts: [{ phoneNumber: "+447700900003" }] }));
    expect(again.status).toBe(200);
    expect((await again.json()).data).toMatchObject({ received: 1, failed: 0 });
  });
});

describe("dashboard inputs", () => {
  it("a lone surrogate is VALIDATION_FAILED naming the field; in a bulk row, that row is reported", async () => {
    const res = await composer(
      sameSite,
      `{"mode":"session","senderId":"${c.sender.phoneNumber}","to":"+447700900000","text":"hi \\ud800"}`,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      error_code: "VALIDATION_FAILED",
      details: { fields: [{ path: "body.text" }] },
    });
    const rows = await upload(
      sameSite,
      '{"contacts":[{"phoneNumber":"+447700900004","name":"\\udc00"},{"phoneNumber":"+447700900005"}]}',
    );
    expect(rows.status).toBe(200);
    expect((await rows.json()).data).toMatchObject({
      received: 2,
      created: 1,
      failed: 1,
      errors: [{ index: 0, error_code: "INVALID_ROW" }],
    });
  });

  it("deep nesting is VALIDATION_FAILED", async () => {
    const deep = `{"mode":"session","x":${"[".repeat(50_000)}${"]".repeat(50_000)}}`;
    const res = await composer(sameSite, deep);
    expect(res.status).toBe(400);
    expect((await res.json()).error_code).toBe("VALIDATION_FAILED");
  });

  it("a chunked body over the limit is refused while it streams", async () => {
    const state = { pulled: 0 };
    const chunk = new Uint8Array(256 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (state.pulled >= 64 * 1024 * 1024) return controller.close();
          state.pulled += chunk.byteLength;
          controller.enqueue(chunk);
        },
      },
      { highWaterMark: 0 },
    );
    const res = await upload(sameSite, stream);
    expect(res.status).toBe(413);
    expect(state.pulled).toBeLessThanOrEqual(10 * 1024 * 1024 + chunk.byteLength);
  });
});
