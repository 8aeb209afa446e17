// The provider layer on its own: the HTTP client's error mapping (docs/api/errors.md), the
// simulator's limits (docs/api/limits.md "Provider limits") and its signed callbacks.
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { signProviderBody, verifyProviderSignature } from "./callbacks/signature";
import { PAIR_RATE_LIMIT, THROUGHPUT_EXCEEDED, THROUGHPUT_UPGRADE } from "./error-codes";
import { createHttpClient } from "./http-client";
import { envelopeFor } from "./simulator-callbacks";
import { PAIR_BURST, SimulatorLimits } from "./simulator-limits";

const sender = { phoneNumberId: "1234567890", phoneNumber: "+14155550100", wabaId: "99887766" };
const payload = { messaging_product: "whatsapp" as const, to: "14155550111", type: "text", text: { body: "hi" } };

function fakeFetch(status: number, body: unknown, seen: { url?: string; init?: RequestInit } = {}): typeof fetch {
  return (async (url: string | URL | Request, init?: RequestInit) => {
    seen.url = String(url);
    seen.init = init;
    return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
  }) as typeof fetch;
}

const client = (f: typeof fetch, token: string | undefined = "tok_default") =>
  createHttpClient({
    baseUrl: "https://graph.example.com",
    apiVersion: "v21.0",
    timeoutMs: 1000,
    tokenFor: (id) => (id === "1234567890" ? "tok_sender" : token),
    fetch: f,
  });

describe("HTTP provider client", () => {
  it("uploads a file as the provider's multipart form, streamed with its length, and answers the provider's id", async () => {
    const bytes = Buffer.from(`%PDF-1.4\n${"x".repeat(200_000)}`);
    let form: FormData | undefined;
    let headers: Headers | undefined;
    const upload = (async (url: string | URL | Request, init?: RequestInit) => {
      expect(String(url)).toBe("https://graph.example.com/v21.0/1234567890/media");
      const request = new Request(url, init);
      headers = request.headers;
      form = await request.formData();
      return Response.json({ id: "1209384756" });
    }) as typeof fetch;
    const out = await client(upload).uploadMedia(sender, {
      mimeType: "application/pdf",
      filename: 'label "1".pdf',
      size: bytes.length,
      open: async () => Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]),
    });
    expect(out).toEqual({ ok: true, id: "1209384756" });
    expect(headers?.get("authorization")).toBe("Bearer tok_sender");
    expect(Number(headers?.get("content-length"))).toBeGreaterThan(bytes.length);
    expect(form?.get("messaging_product")).toBe("whatsapp");
    expect(form?.get("type")).toBe("application/pdf");
    const file = form?.get("file") as File;
    expect(file.name).toBe("label _1_.pdf");
    const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");
    expect(sha(Buffer.from(await file.arrayBuffer()))).toBe(sha(bytes));

    const refused = await client(
      fakeFetch(400, { error: { message: "Param file is invalid", code: 100 } }),
    ).uploadMedia(sender, {
      mimeType: "application/pdf",
      filename: null,
      size: 3,
      open: async () => Readable.from([Buffer.from("abc")]),
    });
    expect(refused).toMatchObject({ ok: false, code: 100, message: "Param file is invalid" });
  });

  it("posts the message to /{version}/{phoneNumberId}/messages with the sender's token", async () => {
    const seen: { url?: string; init?: RequestInit } = {};
    const out = await client(
      fakeFetch(
        200,
        { messaging_product: "whatsapp", contacts: [{ wa_id: "14155550111" }], messages: [{ id: "wamid.X" }] },
        seen,
      ),
    ).sendMessage(sender, payload);
    expect(out).toEqual({ ok: true, messageId: "wamid.X", waId: "14155550111" });
    expect(seen.url).toBe("https://graph.example.com/v21.0/1234567890/messages");
    expect((seen.init?.headers as Record<string, string> | undefined)?.Authorization).toBe("Bearer tok_sender");
    expect(JSON.parse(String(seen.init?.body))).toEqual(payload);
  });

  it.each([THROUGHPUT_EXCEEDED, PAIR_RATE_LIMIT, THROUGHPUT_UPGRADE])(
    "maps provider error %i to a retryable refusal",
    async (code) => {
      const out = await client(
        fakeFetch(400, { error: { message: "limit", type: "OAuthException", code } }),
      ).sendMessage(sender, payload);
      expect(out).toMatchObject({ ok: false, code, retryable: true, ambiguous: false, httpStatus: 400 });
    },
  );

  it("keeps the provider's Retry-After of a throughput refusal", async () => {
    const f = (async () =>
      new Response(JSON.stringify({ error: { message: "limit", code: THROUGHPUT_EXCEEDED } }), {
        status: 429,
        headers: { "Content-Type": "application/json", "Retry-After": "3" },
      })) as typeof fetch;
    expect(await client(f).sendMessage(sender, payload)).toMatchObject({
      ok: false,
      code: THROUGHPUT_EXCEEDED,
      retryable: true,
      retryAfterSeconds: 3,
    });
  });

  it("treats other 4xx as final, 5xx as retryable and network failures as ambiguous", async () => {
    const invalid = await client(fakeFetch(400, { error: { message: "bad param", code: 100 } })).sendMessage(
      sender,
      payload,
    );
    expect(invalid).toMatchObject({ ok: false, code: 100, retryable: false, ambiguous: false });
    const down = await client(fakeFetch(503, {})).sendMessage(sender, payload);
    expect(down).toMatchObject({ ok: false, retryable: true });
    const reset = await client((async () => {
      throw new Error("socket hang up");
    }) as typeof fetch).sendMessage(sender, payload);
    expect(reset).toMatchObject({ ok: false, ambiguous: true, retryable: false });
  });

  it("lists templates across pages", async () => {
    let calls = 0;
    const f = (async () => {
      calls += 1;
      const body =
        calls === 1
          ? {
              data: [{ id: "1", name: "a", language: "en", category: "UTILITY", status: "APPROVED" }],
              paging: { next: "https://graph.example.com/next" },
            }
          : {
              data: [
                {
                  id: "2",
                  name: "b",
                  language: "en",
                  category: "MARKETING",
                  status: "PENDING",
                  correct_category: "UTILITY",
                },
              ],
            };
      return new Response(JSON.stringify(body), { status: 200 });
    }) as typeof fetch;
    const list = await client(f).listTemplates(sender);
    expect(list.map((t) => [t.name, t.correctCategory])).toEqual([
      ["a", null],
      ["b", "UTILITY"],
    ]);
  });
});

describe("simulator limits", () => {
  it("allows the per-number throughput per second, then answers throughput", () => {
    const limits = new SimulatorLimits(80);
    const now = 1_700_000_000_000;
    for (let i = 0; i < 80; i++) expect(limits.check("n1", `r${i}`, {}, now)).toBe("ok");
    expect(limits.check("n1", "r-extra", {}, now + 10)).toBe("throughput");
    expect(limits.check("n2", "r-extra", {}, now + 10)).toBe("ok");
    expect(limits.check("n1", "r-extra", {}, now + 1000)).toBe("ok");
  });

  it("allows a burst of 45 to one user within 6 seconds, then the pair limit", () => {
    const limits = new SimulatorLimits(1000);
    const now = 1_700_000_000_000;
    for (let i = 0; i < PAIR_BURST; i++) expect(limits.check("n1", "user", {}, now + i * 30)).toBe("ok");
    expect(limits.check("n1", "user", {}, now + 2000)).toBe("pair");
    expect(limits.check("n1", "other", {}, now + 2000)).toBe("ok");
    expect(limits.check("n1", "user", {}, now + 6100)).toBe("ok");
  });
});

describe("simulator callbacks", () => {
  it("builds the provider's envelope and signs it with the app secret", () => {
    const body = envelopeFor([
      {
        entryId: "w1",
        field: "messages",
        value: { metadata: { phone_number_id: "1" }, statuses: [{ id: "wamid.A", status: "sent" }] },
      },
    ]);
    expect(JSON.parse(body)).toMatchObject({
      object: "whatsapp_business_account",
      entry: [{ id: "w1", changes: [{ field: "messages" }] }],
    });
    expect(verifyProviderSignature(body, signProviderBody(body))).toBe(true);
    expect(verifyProviderSignature(body, signProviderBody(body, "another secret"))).toBe(false);
  });
});
