// The permission walk (docs/members.md "Checking a permission"): EVERY dashboard page and layout,
// every server action in app/ and every app/api/dashboard handler, found from the file
// tree, is called for every role and without a session. Each must be listed below with the
// permission of lib/domains/auth/permissions.ts it needs; the walk fails for one that is
// not listed, for one a role the table denies can reach, and for one a role the table
// allows is refused. Only the session read is replaced (next-auth's getServerSession): the
// member is loaded from the database and checked by the real guard (lib/dashboard/guard.ts).
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { memberPermission } from "@/lib/api/route-definition";
import { deniedMessage } from "@/lib/domains/auth/access";
import { PERMISSION_NAMES, type Permission, ROLES, type Role, roleHas } from "@/lib/domains/auth/permissions";
import { addMember } from "@/lib/domains/members/service";
import { nextRequest } from "@/test/next-request-double";
import { createTestCustomer } from "./factory";
import { signedInSession } from "./member-fixtures";

/** Every entry point and the permission it needs ("public": no session needed by design). */
const EXPECTED: Record<string, Permission | "public"> = {
  // Pages and the layout around them.
  "app/(dashboard)/layout.tsx": "dashboard",
  "app/(dashboard)/page.tsx": "dashboard",
  "app/(dashboard)/no-access/page.tsx": "dashboard",
  "app/(dashboard)/account/page.tsx": "account",
  "app/(dashboard)/analytics/page.tsx": "billing",
  "app/(dashboard)/audit/page.tsx": "audit",
  "app/(dashboard)/billing/page.tsx": "billing",
  "app/(dashboard)/billing/ledger/page.tsx": "billing",
  "app/(dashboard)/blacklist/page.tsx": "contacts.read",
  "app/(dashboard)/broadcasts/page.tsx": "broadcasts",
  "app/(dashboard)/broadcasts/[broadcastUid]/page.tsx": "broadcasts",
  "app/(dashboard)/broadcasts/new/page.tsx": "broadcasts",
  "app/(dashboard)/broadcasts/segments/page.tsx": "broadcasts",
  "app/(dashboard)/broadcasts/segments/new/page.tsx": "broadcasts",
  "app/(dashboard)/broadcasts/segments/[segmentUid]/page.tsx": "broadcasts",
  "app/(dashboard)/chatbots/page.tsx": "chatbots",
  "app/(dashboard)/chatbots/[uid]/page.tsx": "chatbots",
  "app/(dashboard)/chatbots/new/page.tsx": "chatbots",
  "app/(dashboard)/automations/page.tsx": "automations",
  "app/(dashboard)/automations/[uid]/page.tsx": "automations",
  "app/(dashboard)/automations/new/page.tsx": "automations",
  "app/(dashboard)/automations/business-hours/page.tsx": "automations",
  "app/(dashboard)/automations/sla/page.tsx": "automations",
  "app/(dashboard)/contacts/page.tsx": "contacts.read",
  "app/(dashboard)/contacts/[uid]/page.tsx": "contacts.read",
  "app/(dashboard)/inbox/page.tsx": "inbox",
  "app/(dashboard)/inbox/settings/page.tsx": "inbox.settings",
  "app/(dashboard)/inbox/labels/page.tsx": "inbox.settings",
  "app/(dashboard)/members/page.tsx": "members",
  "app/(dashboard)/messages/page.tsx": "inbox",
  "app/(dashboard)/reports/page.tsx": "reports",
  "app/(dashboard)/reports/csat/page.tsx": "reports",
  "app/(dashboard)/senders/page.tsx": "senders",
  "app/(dashboard)/templates/page.tsx": "templates",
  "app/(dashboard)/templates/new/page.tsx": "templates",
  "app/(dashboard)/templates/[uid]/page.tsx": "templates",
  "app/(dashboard)/tokens/page.tsx": "tokens",
  "app/(dashboard)/tokens/[id]/page.tsx": "tokens",
  "app/(dashboard)/tokens/usage/page.tsx": "tokens",
  "app/(dashboard)/webhooks/page.tsx": "webhooks",
  "app/(dashboard)/webhooks/[uid]/page.tsx": "webhooks",
  "app/(dashboard)/webhooks/events/page.tsx": "webhooks",
  // Server actions (every exported function of the file).
  "app/(dashboard)/billing/ledger/actions.ts": "billing",
  "app/(dashboard)/blacklist/actions.ts": "contacts.write",
  "app/(dashboard)/reports/actions.ts": "reports",
  "app/(dashboard)/broadcasts/[broadcastUid]/actions.ts": "broadcasts",
  "app/(dashboard)/broadcasts/new/actions.ts": "broadcasts",
  "app/(dashboard)/broadcasts/segments/actions.ts": "broadcasts",
  "app/(dashboard)/chatbots/actions.ts": "chatbots",
  "app/(dashboard)/automations/actions.ts": "automations",
  "app/(dashboard)/contacts/actions.ts": "contacts.write",
  "app/(dashboard)/senders/actions.ts": "senders",
  "app/(dashboard)/templates/actions.ts": "templates",
  "app/(dashboard)/tokens/actions.ts": "tokens",
  "app/(dashboard)/webhooks/actions.ts": "webhooks",
  "app/(dashboard)/webhooks/[uid]/recovery-actions.ts": "webhooks",
  "app/(dashboard)/members/actions.ts": "members",
  "app/(dashboard)/account/actions.ts": "account",
  "app/(auth)/forgot-password/actions.ts": "public",
  "app/(auth)/reset-password/[token]/actions.ts": "public",
  "app/(dashboard)/inbox/settings/actions.ts": "inbox.settings",
  "app/(dashboard)/inbox/labels/actions.ts": "inbox.settings",
  "app/(auth)/signup/actions.ts": "public",
  "app/(auth)/invite/[token]/actions.ts": "public",
  // app/api/dashboard handlers (every exported method).
};

/**
 * The router's mount for the session (docs/dashboard.md "Data the browser holds"): one file
 * serving every route of the table marked `session`, each walked on its own path with the
 * permission its definition names.
 */
const ROUTER_MOUNT = "app/api/dashboard/[...path]/route.ts";

const ROOT = path.resolve(import.meta.dirname, "..");

function walk(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((d) => {
    const rel = `${dir}/${d.name}`;
    return d.isDirectory() ? walk(rel) : [rel];
  });
}

const isServerActionFile = (file: string) =>
  /\.(ts|tsx)$/.test(file) &&
  !file.endsWith(".test.ts") &&
  /^\s*(\/\/[^\n]*\n\s*)*["']use server["']/.test(fs.readFileSync(path.join(ROOT, file), "utf8"));

const pages = walk("app/(dashboard)").filter((f) => /\/(page|layout)\.tsx$/.test(f));
const actions = walk("app").filter(isServerActionFile);
const handlers = walk("app/api/dashboard").filter((f) => f.endsWith("/route.ts"));
const discovered = [...pages, ...actions, ...handlers].filter((f) => f !== ROUTER_MOUNT).sort();

/** Dynamic segments ([uid]) filled with ids that exist nowhere. */
function paramsOf(file: string): Record<string, string> {
  return Object.fromEntries([...file.matchAll(/\[(\w+)\]/g)].map(([, name]) => [name, `zz_${name}_missing`]));
}

type Outcome = { kind: "login" } | { kind: "denied"; permission: string } | { kind: "reached"; detail: string };

/** A thrown value as what a user would meet: the login page, the "no access" page, or anything else. */
function fromThrown(error: unknown): Outcome {
  const digest = (error as { digest?: unknown })?.digest;
  if (typeof digest === "string" && digest.startsWith("NEXT_REDIRECT;")) {
    const url = digest.split(";")[2] ?? "";
    if (url === "/login" || url.startsWith("/login?")) return { kind: "login" };
    const denied = /^\/no-access\?need=([^&]+)/.exec(url);
    if (denied?.[1]) return { kind: "denied", permission: decodeURIComponent(denied[1]) };
    return { kind: "reached", detail: `redirect ${url}` };
  }
  return { kind: "reached", detail: error instanceof Error ? error.message.slice(0, 80) : String(error) };
}

type Entry = { name: string; file: string; expected: Permission | "public"; run: () => Promise<Outcome> };

/** A handler's answer as what a user would meet. */
async function outcomeOf(res: Response): Promise<Outcome> {
  const body = res.headers.get("content-type")?.includes("json") ? await res.json() : {};
  if (res.status === 401) return { kind: "login" };
  if (res.status === 403 && typeof body?.details?.permission === "string") {
    return { kind: "denied", permission: body.details.permission };
  }
  return { kind: "reached", detail: `${res.status} ${body?.error_code ?? ""}` };
}

const walkHeaders = { Host: "dash.test", Origin: "http://dash.test", "Content-Type": "application/json" };

/** Every session route of the table, on its path under /api/dashboard with ids that exist nowhere. */
async function routerEntries(): Promise<Entry[]> {
  const { routes: publicRoutes } = await import("@/lib/api/route-table");
  const { dashboardRoutes } = await import("@/lib/api/dashboard-route-table");
  const routes = [...publicRoutes, ...dashboardRoutes];
  const mount = (await import(/* @vite-ignore */ path.join(ROOT, ROUTER_MOUNT))) as Record<
    string,
    (request: Request) => Promise<Response>
  >;
  return routes
    .filter((r) => r.session)
    .map((r) => {
      const url = `http://dash.test/api/dashboard${r.path.replace(/:(\w+)/g, "zz_$1_missing")}`;
      return {
        name: `${r.method} ${ROUTER_MOUNT} ${r.path}`,
        file: ROUTER_MOUNT,
        expected: memberPermission(r) as Permission,
        run: async () => {
          const handler = mount[r.method];
          if (!handler) throw new Error(`${ROUTER_MOUNT} does not export ${r.method}`);
          const body = r.method === "GET" ? {} : { body: "{}" };
          return outcomeOf(await handler(new Request(url, { method: r.method, headers: walkHeaders, ...body })));
        },
      };
    });
}

async function entriesOf(file: string): Promise<Entry[]> {
  const mod = (await import(/* @vite-ignore */ path.join(ROOT, file))) as Record<string, unknown>;
  const params = paramsOf(file);
  if (pages.includes(file)) {
    const page = mod.default as (props: unknown) => Promise<unknown>;
    return [
      {
        name: file,
        file,
        expected: EXPECTED[file] as Permission,
        run: async () => {
          try {
            await page({ params: Promise.resolve(params), searchParams: Promise.resolve({}), children: null });
            return { kind: "reached", detail: "rendered" };
          } catch (error) {
            return fromThrown(error);
          }
        },
      },
    ];
  }
  if (handlers.includes(file)) {
    return ["GET", "POST", "PUT", "PATCH", "DELETE"]
      .filter((method) => typeof mod[method] === "function")
      .map((method) => ({
        name: `${method} ${file}`,
        file,
        expected: EXPECTED[file] as Permission,
        run: async () => {
          const handler = mod[method] as (request: Request, ctx: unknown) => Promise<Response>;
          const request = new Request("http://dash.test/api/dashboard/x", {
            method,
            headers: walkHeaders,
            ...(method === "GET" ? {} : { body: "{}" }),
          });
          return outcomeOf(await handler(request, { params: Promise.resolve(params) }));
        },
      }));
  }
  // A server action file: every exported function, called with placeholder arguments.
  return Object.entries(mod)
    .filter(([, value]) => typeof value === "function")
    .map(([exported, value]) => ({
      name: `${file}#${exported}`,
      file,
      expected: EXPECTED[file] as Permission | "public",
      run: async () => {
        try {
          const result = (await (value as (...args: unknown[]) => Promise<unknown>)("zz_missing", {}, {})) as {
            ok?: boolean;
            message?: string;
          };
          // A refusal a service raised inside the action's work (the members services check too).
          const permission = PERMISSION_NAMES.find((p) => result?.ok === false && result.message === deniedMessage(p));
          if (permission) return { kind: "denied", permission };
          return { kind: "reached", detail: JSON.stringify(result).slice(0, 80) };
        } catch (error) {
          return fromThrown(error);
        }
      },
    }));
}

it("every page, action and handler of the file tree is listed with its permission, and nothing else", () => {
  expect(pages.length).toBeGreaterThan(10);
  // The walk finds the handlers the file tree holds: the router's mount is the one left once the
  // JSON handlers, the exports, the media routes and the live stream moved onto the router
  // (docs/dashboard.md).
  expect(handlers).toEqual([ROUTER_MOUNT]);
  const unlisted = discovered.filter((f) => !(f in EXPECTED));
  expect(unlisted, "add these to EXPECTED with the permission they need").toEqual([]);
  const stale = Object.keys(EXPECTED).filter((f) => !discovered.includes(f));
  expect(stale, "these are listed but no longer exist").toEqual([]);
});

it("the router's session routes are walked too, each with the permission its definition names", () => {
  const walked = entries
    .filter((e) => e.file === ROUTER_MOUNT)
    .map((e) => `${e.name.split(" ")[0]} ${e.name.split(" ").at(-1)} ${e.expected}`);
  expect(walked).toContain("POST /conversations/:conversationUid/messages inbox");
  expect(walked).toContain("GET /conversations/:conversationUid/notes inbox");
  // The dashboard's own routes (lib/api/dashboard-route-table.ts) as well.
  expect(walked).toContain("GET /saved-replies inbox");
  expect(walked).toContain("GET /conversations/:conversationUid/assignees inbox");
  // The CSV exports (lib/api/dashboard-routes/exports.ts), and the API's media routes with the
  // permission a member needs there (the inbox's, not the token's).
  expect(walked).toContain("GET /audit/export audit");
  expect(walked).toContain("GET /billing/export billing");
  expect(walked).toContain("GET /broadcasts/:broadcastUid/recipients/export broadcasts");
  expect(walked).toContain("GET /reports/export reports");
  expect(walked).toContain("POST /media inbox");
  expect(walked).toContain("GET /media/:mediaId/content inbox");
  expect(walked).toContain("GET /messages inbox");
  expect(walked).toContain("POST /messages inbox");
  expect(walked).toContain("POST /broadcasts/estimate broadcasts");
  expect(walked).toContain("POST /segments/count broadcasts");
  expect(walked).toContain("GET /webhooks/:webhookUid/recoveries/:recoveryUid webhooks");
  expect(walked).toContain("POST /contact-books/:contactBookUid/contacts/bulk contacts.write");
  expect(walked).toContain("GET /conversations inbox");
  expect(walked).toContain("GET /conversations/unread inbox");
  expect(walked).toContain("GET /conversations/:conversationUid inbox");
  expect(walked).toContain("POST /conversations/:conversationUid inbox");
  expect(walked).toContain("POST /conversations/:conversationUid/labels inbox");
  expect(walked).toContain("POST /conversations/:conversationUid/typing inbox");
  // The live stream: any signed-in member (lib/api/dashboard-routes/live.ts).
  expect(walked).toContain("GET /live dashboard");
});

const members = {} as Record<Role, { userId: string; customerId: string; sessionId: string }>;
let entries: Entry[] = [];
beforeAll(async () => {
  const c = await createTestCustomer();
  for (const role of ROLES) {
    const user = await addMember({
      customerId: c.customer.id,
      email: `walk-${role}-${c.customer.id}@example.test`,
      password: "a-long-password",
      role,
      // The agent works on one of the account's senders.
      senders: role === "agent" ? [c.sender.phoneNumber] : [],
    });
    members[role] = await signedInSession(user.id, c.customer.id);
  }
  entries = [
    ...(await Promise.all(discovered.filter((f) => f in EXPECTED).map(entriesOf))).flat(),
    ...(await routerEntries()),
  ];
}, 120_000);

describe.each(ROLES)("as %s", (role) => {
  it("reaches exactly what the table allows", async () => {
    nextRequest.session = members[role];
    const wrong: string[] = [];
    for (const entry of entries) {
      const expected = entry.expected;
      if (expected === undefined) continue;
      const outcome = await entry.run();
      if (expected === "public") {
        if (outcome.kind === "denied") wrong.push(`${entry.name}: public, but refused`);
        continue;
      }
      const allowed = roleHas(role, expected);
      if (allowed && outcome.kind !== "reached") wrong.push(`${entry.name}: ${role} may, but got ${outcome.kind}`);
      if (!allowed && outcome.kind !== "denied") {
        wrong.push(`${entry.name}: ${role} may not (${expected}), but it was reached (${JSON.stringify(outcome)})`);
      }
      if (outcome.kind === "denied" && outcome.permission !== expected) {
        wrong.push(`${entry.name}: refused for "${outcome.permission}", listed as "${expected}"`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

it("without a session every non-public entry sends to the login page (or answers 401)", async () => {
  nextRequest.session = null;
  const wrong: string[] = [];
  for (const entry of entries) {
    if (entry.expected === "public") continue;
    const outcome = await entry.run();
    if (outcome.kind !== "login") wrong.push(`${entry.name}: ${JSON.stringify(outcome)}`);
  }
  expect(wrong).toEqual([]);
});

it("a removed member's next request is refused like no session at all", async () => {
  const { db } = await import("@/lib/db");
  const c = await createTestCustomer();
  const owner = await addMember({
    customerId: c.customer.id,
    email: `walk-gone-${c.customer.id}@example.test`,
    password: "a-long-password",
    role: "owner",
  });
  nextRequest.session = await signedInSession(owner.id, c.customer.id);
  const tokens = entries.find((e) => e.name === "app/(dashboard)/tokens/page.tsx");
  expect(await tokens?.run()).toMatchObject({ kind: "reached" });
  await db.user.delete({ where: { id: owner.id } });
  expect(await tokens?.run()).toEqual({ kind: "login" });
});

it("an ended session's next request is refused like no session at all (pages, actions, handlers)", async () => {
  const { db } = await import("@/lib/db");
  const { endSessionById } = await import("@/lib/domains/security/sessions");
  const c = await createTestCustomer();
  const owner = await addMember({
    customerId: c.customer.id,
    email: `walk-ended-${c.customer.id}@example.test`,
    password: "a-long-password",
    role: "owner",
  });
  const signedIn = await signedInSession(owner.id, c.customer.id);
  nextRequest.session = signedIn;
  const probes = [
    "app/(dashboard)/tokens/page.tsx",
    "app/(dashboard)/members/actions.ts#removeMemberAction",
    `GET ${ROUTER_MOUNT} /conversations`,
  ].map((name) => entries.find((e) => e.name === name));
  for (const probe of probes) expect((await probe?.run())?.kind, probe?.name).toBe("reached");
  await endSessionById(signedIn.sessionId, "ended");
  for (const probe of probes) expect(await probe?.run(), probe?.name).toEqual({ kind: "login" });
  // The member and the JWT are untouched: only the session row ended.
  expect(await db.user.count({ where: { id: owner.id } })).toBe(1);
});

it("while the account requires two-factor, a member without it reaches only the account page", async () => {
  const { db } = await import("@/lib/db");
  const c = await createTestCustomer();
  await db.customer.update({ where: { id: c.customer.id }, data: { require2fa: true } });
  const dev = await addMember({
    customerId: c.customer.id,
    email: `walk-2fa-${c.customer.id}@example.test`,
    password: "a-long-password",
    role: "admin",
  });
  nextRequest.session = await signedInSession(dev.id, c.customer.id);
  const run = (name: string) => entries.find((e) => e.name === name)?.run();
  expect(await run("app/(dashboard)/account/page.tsx")).toEqual({ kind: "reached", detail: "rendered" });
  expect(await run("app/(dashboard)/tokens/page.tsx")).toEqual({
    kind: "reached",
    detail: "redirect /account?setup=required",
  });
  // The handler's 403 names the permission asked for (the table grants it; the setup comes first).
  expect(await run(`GET ${ROUTER_MOUNT} /conversations`)).toEqual({ kind: "denied", permission: "inbox" });
  await db.user.update({ where: { id: dev.id }, data: { totpEnabledAt: new Date() } });
  expect(await run("app/(dashboard)/tokens/page.tsx")).toEqual({ kind: "reached", detail: "rendered" });
});
