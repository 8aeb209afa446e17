// Sends through the router with the HTTP provider client (a fake Graph API answering with the
// provider's error codes): throughput codes are retried, others map to our errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setProvider } from "@/lib/domains/provider/client";
import { createHttpClient } from "@/lib/domains/provider/http-client";
import { call } from "@/test/factory";
import { engagedRecipient, HELLO_PARAMS, messagingCustomer, recipient } from "@/test/messaging-fixtures";

type Answer = { status: number; body: unknown };
const script: Answer[] = [];
const seen: { url: string; auth: string | null; body: unknown }[] = [];

beforeAll(() => {
  setProvider(
    createHttpClient({
      baseUrl: "https://graph.test",
      apiVersion: "v21.0",
      timeoutMs: 1000,
      tokenFor: () => "EAAG-test-token",
      fetch: (async (url: string | URL | Request, init?: RequestInit) => {
        const headers = new Headers(init?.headers);
        seen.push({ url: String(url), auth: headers.get("authorization"), body: JSON.parse(String(init?.body)) });
        const next = script.shift();
        if (!next) throw new Error("connection reset");
        return new Response(JSON.stringify(next.body), { status: next.status });
      }) as typeof fetch,
    }),
  );
});
afterAll(() => setProvider(undefined));

const ok = (id: string) => ({
  status: 200,
  body: { messaging_product: "whatsapp", contacts: [{ wa_id: "1" }], messages: [{ id }] },
});
const err = (code: number, status = 400) => ({
  status,
  body: { error: { message: `error ${code}`, type: "OAuthException", code } },
});

describe("HTTP provider through the send routes", () => {
  it("retries 130429 and accepts once, with the sender's phone number id and token", async () => {
    const t = await messagingCustomer();
    seen.length = 0;
    script.push(err(130429), ok("wamid.HTTP1"));
    const res = await call("POST", "/api/v3/send", {
      token: t.globalToken,
      body: { to: recipient(), template: { name: "order_update", components: HELLO_PARAMS } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-service-message-id")).toBe("wamid.HTTP1");
    expect(seen).toHaveLength(2);
    expect(seen[0]?.url).toBe(`https://graph.test/v21.0/${t.sender.phoneNumberId}/messages`);
    expect(seen[0]?.auth).toBe("Bearer EAAG-test-token");
    expect(seen[1]?.body).toEqual(seen[0]?.body);
  });

  it("maps a final provider error to PROVIDER_REJECTED and a reset to PROVIDER_UNAVAILABLE (never resent)", async () => {
    const t = await messagingCustomer();
    script.push(err(131009));
    const rejected = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to: await engagedRecipient(t.sender), text: "x" },
    });
    expect(rejected.status).toBe(400);
    expect(rejected.body).toMatchObject({ error_code: "PROVIDER_REJECTED", details: { providerCode: 131009 } });
    seen.length = 0;
    const reset = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { to: await engagedRecipient(t.sender), text: { body: "x" } },
    });
    expect(reset.status).toBe(502);
    expect(reset.body.error.error_data.error_code).toBe("PROVIDER_UNAVAILABLE");
    expect(seen).toHaveLength(1);
  });
});
