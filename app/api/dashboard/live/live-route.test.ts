// The live stream's route (lib/api/dashboard-routes/live.ts, docs/inbox.md "Live updates"),
// served by the dashboard's catch-all: a signed-in member gets a Server-Sent Events answer that
// proxies and Next's compression pass on as written, opening with `ready`, that lives on past
// the periodic checks and is let go when the browser goes away (or asked with HEAD); without a
// session, the 401 envelope.
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTestCustomer } from "@/test/factory";
import { readLive } from "@/test/live-reader";
import { createMemberOf } from "@/test/member-fixtures";
import { nextRequest } from "@/test/next-request-double";

const { GET, HEAD } = await import("@/app/api/dashboard/[...path]/route");
const { liveClientCount, setLiveCheckInterval } = await import("@/lib/domains/live/hub");
const { principalForSession } = await import("@/lib/domains/security/session-principal");

const request = () => new Request("http://dash.test/api/dashboard/live", { headers: { Host: "dash.test" } });

afterEach(() => {
  nextRequest.principal = undefined;
  setLiveCheckInterval(15_000);
});

async function signedInAgent() {
  const t = await createTestCustomer();
  const agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
  nextRequest.principal = (await principalForSession(agent.session)) ?? undefined;
}

describe("GET /api/dashboard/live", () => {
  it("streams text/event-stream, untransformed, opening with ready", async () => {
    const t = await createTestCustomer();
    const agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
    nextRequest.principal = (await principalForSession(agent.session)) ?? undefined;
    const res = await GET(request());
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-cache, no-transform");
    if (!res.body) throw new Error("no body");
    const live = readLive(res.body);
    await vi.waitFor(() => expect(live.events[0]).toEqual({ event: "ready", data: { heartbeatMs: 15_000 } }));
    await live.stop();
  });

  it("stays open past several checks, each a ping; the browser going away lets it go", async () => {
    await signedInAgent();
    setLiveCheckInterval(100);
    const before = liveClientCount();
    const res = await GET(request());
    if (!res.body) throw new Error("no body");
    const live = readLive(res.body);
    await vi.waitFor(() => expect(live.of("ping").length).toBeGreaterThanOrEqual(3), { timeout: 5_000 });
    expect(live.closed).toBe(false);
    expect(liveClientCount()).toBe(before + 1);
    await live.stop();
    await vi.waitFor(() => expect(liveClientCount()).toBe(before));
  });

  it("HEAD answers the headers and holds no stream", async () => {
    await signedInAgent();
    const before = liveClientCount();
    const res = await HEAD(new Request(request(), { method: "HEAD" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(res.body).toBeNull();
    expect(liveClientCount()).toBe(before);
  });

  it("is 401 without a session", async () => {
    const res = await GET(request());
    expect(res.status).toBe(401);
    expect((await res.json()).error_code).toBe("UNAUTHORIZED");
  });
});
