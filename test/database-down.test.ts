// While the database cannot be reached (docs/api/errors.md "When to retry"): every way in
// answers 503 SERVICE_UNAVAILABLE with Retry-After, in its own shape, never a 500; the lean
// server, the front server of `npm start`, the Next mount, the provider callback endpoint,
// a dashboard handler and a server action. The process's database connections go through a
// relay the test cuts (test/db-proxy.ts), so the database is unreachable from this process
// as it is when the server stops; once it is back, the same requests succeed again.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { nextApiHandler } from "@/lib/api/next-mount";
import { resetEnvCache } from "@/lib/core/env";
import { disconnectDb } from "@/lib/db";
import { signProviderBody } from "@/lib/domains/provider/callbacks/signature";
import { createFrontServer } from "@/lib/http/front-server";
import { createLeanServer } from "@/lib/http/lean-server";
import { mounts } from "@/lib/http/mounts";
import { type DbProxy, startDbProxy } from "./db-proxy";
import { createTestCustomer, type TestCustomer } from "./factory";
import { sendHttp } from "./http-send";
import { createMemberOf, type TestMember } from "./member-fixtures";

const session = vi.hoisted(() => ({
  current: null as { userId: string; customerId: string; sessionId: string } | null,
}));
vi.mock("next-auth", async (original) => ({
  ...(await original<typeof import("next-auth")>()),
  getServerSession: async () => session.current,
}));
vi.mock("next/headers", () => ({
  headers: async () => new Headers({ host: "dash.test" }),
  cookies: async () => ({ get: () => undefined, getAll: () => [], has: () => false }),
}));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {} }));

const { GET: listConversations } = await import("@/app/api/dashboard/[...path]/route");
const { createTokenAction } = await import("@/app/(dashboard)/tokens/actions");

let proxy: DbProxy;
let c: TestCustomer;
let owner: TestMember;
const servers: http.Server[] = [];
let leanPort: number;
let frontPort: number;

const listen = async (server: http.Server) => {
  servers.push(server);
  return new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );
};

beforeAll(async () => {
  // This process reaches the database only through the relay from here on.
  await disconnectDb();
  proxy = await startDbProxy(inject("databaseUrl"));
  process.env.DATABASE_URL = proxy.url;
  resetEnvCache();
  c = await createTestCustomer();
  owner = await createMemberOf(c.customer.id, "owner");
  leanPort = await listen(createLeanServer(mounts));
  // The stand-in for `next start` is never reached: the API is served by the front server itself.
  const next = await listen(http.createServer((_req, res) => res.end("next")));
  frontPort = await listen(createFrontServer(mounts, { host: "127.0.0.1", port: next }));
});
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await disconnectDb();
  await proxy.close();
  process.env.DATABASE_URL = inject("databaseUrl");
  resetEnvCache();
});

const auth = () => ({ Authorization: `Bearer ${c.globalToken}` });
const sendBody = () => JSON.stringify({ to: "+14155550123", template: { name: "hello_world", language: "en_US" } });

/** Every way in, once; each answer as [what, status, Retry-After, the code its body carries]. */
async function everyWayIn(): Promise<[string, number, string | null, unknown][]> {
  const viaHttp = async (what: string, port: number, method: string, path: string, body?: string) => {
    const headers = { ...auth(), ...(body ? { "Content-Type": "application/json" } : {}) };
    const reply = await sendHttp(port, method, path, headers, body === undefined ? [] : [body]);
    const parsed = reply.headers["content-type"]?.startsWith("application/json") ? JSON.parse(reply.text) : reply.text;
    const code = typeof parsed === "object" ? (parsed.error_code ?? parsed.error?.error_data?.error_code) : parsed;
    return [what, reply.status, (reply.headers["retry-after"] as string | undefined) ?? null, code] as [
      string,
      number,
      string | null,
      unknown,
    ];
  };
  const fromResponse = async (what: string, res: Response) => {
    const body = (await res.json()) as { error_code?: string };
    return [what, res.status, res.headers.get("retry-after"), body.error_code] as [
      string,
      number,
      string | null,
      unknown,
    ];
  };
  const callback = JSON.stringify({ object: "whatsapp_business_account", entry: [] });
  session.current = owner.session;
  const action = await createTokenAction({ name: "while the database is down" });
  return [
    await viaHttp("lean: read", leanPort, "GET", "/api/v3/webhooks"),
    await viaHttp("lean: send", leanPort, "POST", "/api/v3/send", sendBody()),
    await viaHttp("lean: provider-shaped send", leanPort, "POST", "/api/v3/messages", "{}"),
    await viaHttp("front: read", frontPort, "GET", "/api/v2/webhooks"),
    await fromResponse(
      "Next mount: read",
      await nextApiHandler(new Request("http://localhost/api/v3/webhooks", { headers: auth() })),
    ),
    [
      "provider callback",
      ...(await sendHttp(
        leanPort,
        "POST",
        "/api/provider/webhook",
        { "Content-Type": "application/json", "X-Hub-Signature-256": signProviderBody(callback) },
        [callback],
      ).then((r) => [r.status, (r.headers["retry-after"] as string | undefined) ?? null, r.text] as const)),
    ],
    await fromResponse(
      "dashboard handler",
      await listConversations(new Request("http://dash.test/api/dashboard/conversations"), {}),
    ),
    ["server action", action.ok ? 200 : 503, null, action.ok ? "ok" : action.code],
  ];
}

describe("while the database cannot be reached", () => {
  it("every way in answers 503 with Retry-After and its own error shape, then works again once it is back", async () => {
    const before = await sendHttp(leanPort, "GET", "/api/v3/webhooks", auth());
    expect(before.status).toBe(200);

    await proxy.stop();
    const down = await everyWayIn();
    expect(down).toEqual([
      ["lean: read", 503, "5", "SERVICE_UNAVAILABLE"],
      ["lean: send", 503, "5", "SERVICE_UNAVAILABLE"],
      ["lean: provider-shaped send", 503, "5", "SERVICE_UNAVAILABLE"],
      ["front: read", 503, "5", "SERVICE_UNAVAILABLE"],
      ["Next mount: read", 503, "5", "SERVICE_UNAVAILABLE"],
      ["provider callback", 503, "5", "Service Unavailable"],
      ["dashboard handler", 503, "5", "SERVICE_UNAVAILABLE"],
      ["server action", 503, null, "SERVICE_UNAVAILABLE"],
    ]);
    // The envelope says what to do, nothing internal.
    const envelope = JSON.parse((await sendHttp(leanPort, "GET", "/api/v3/webhooks", auth())).text);
    expect(envelope).toMatchObject({
      success: false,
      error_code: "SERVICE_UNAVAILABLE",
      message: "The service is briefly unavailable; retry in 5 seconds",
      docUrl: "/docs/errors#service_unavailable",
    });
    expect(JSON.stringify(envelope)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|terminated|prisma/i);
    // A burst meanwhile: never a 500.
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        i % 2
          ? sendHttp(leanPort, "GET", "/api/v3/webhooks", auth())
          : sendHttp(frontPort, "POST", "/api/v3/send", { ...auth(), "Content-Type": "application/json" }, [
              sendBody(),
            ]),
      ),
    );
    expect(new Set(burst.map((r) => r.status))).toEqual(new Set([503]));
    expect((await sendHttp(leanPort, "GET", "/api/health")).status).toBe(503);

    await proxy.start();
    await vi.waitFor(
      async () => expect((await sendHttp(leanPort, "GET", "/api/v3/webhooks", auth())).status).toBe(200),
      { timeout: 10_000 },
    );
    expect((await listConversations(new Request("http://dash.test/api/dashboard/conversations"), {})).status).toBe(200);
  });
});
