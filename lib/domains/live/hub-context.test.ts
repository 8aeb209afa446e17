// The hub's timer and subscription belong to no request (lib/domains/live/hub.ts): the first
// stream opens inside its request (the router runs each in asRequest, naming its customer,
// lib/core/db-context.ts), yet the checks of every stream's session that follow, on the timer
// and on the subscription's start-up call, are never counted as that customer's.
import { afterAll, afterEach, expect, it, vi } from "vitest";
import { asRequest, currentCustomer, requestCustomer } from "@/lib/core/db-context";
import type { Principal } from "@/lib/domains/auth/principal";
import { createTestCustomer } from "@/test/factory";
import { createMemberOf } from "@/test/member-fixtures";

const seen = vi.hoisted(() => ({ customers: [] as string[] }));
vi.mock("@/lib/domains/security/session-principal", async (original) => {
  const real = await original<typeof import("@/lib/domains/security/session-principal")>();
  const context = await import("@/lib/core/db-context");
  return {
    ...real,
    principalForSession: (...args: Parameters<typeof real.principalForSession>) => {
      seen.customers.push(context.currentCustomer() ?? "none");
      return real.principalForSession(...args);
    },
  };
});

const { addLiveClient, setLiveCheckInterval } = await import("./hub");
const { principalForSession } = await import("@/lib/domains/security/session-principal");

let remove = () => {};
afterEach(() => remove());
afterAll(() => setLiveCheckInterval(15_000));

it("the checks after a stream opened in a request run as no request's", async () => {
  const t = await createTestCustomer();
  const member = await createMemberOf(t.customer.id, "owner");
  const principal = (await principalForSession(member.session)) as Principal;
  setLiveCheckInterval(50);
  const pings: number[] = [];
  seen.customers = [];
  remove = asRequest(() => {
    requestCustomer(t.customer.id);
    expect(currentCustomer()).toBe(t.customer.id);
    return addLiveClient({
      principal,
      deliver: () => {},
      resync: () => {},
      heartbeat: () => pings.push(Date.now()),
      end: () => {},
    });
  });
  await vi.waitFor(() => expect(pings.length).toBeGreaterThanOrEqual(3), { timeout: 5_000 });
  expect(seen.customers.length).toBeGreaterThanOrEqual(3);
  expect(new Set(seen.customers)).toEqual(new Set(["none"]));
});
