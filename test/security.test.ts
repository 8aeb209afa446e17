// One security suite over EVERY route of the table (routes added later are covered
// automatically), on every version it exists on, plus the versions it does not.
import { randomBytes, randomInt } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { type AnyRoute, VERSIONS } from "@/lib/api/route-definition";
import { routes } from "@/lib/api/route-table";
import { TOKEN_PERMISSIONS, type TokenPermission } from "@/lib/domains/auth/permissions";
import { PLAN_FEATURES, systemPrincipal } from "@/lib/domains/auth/principal";
import { issueToken, revokeToken } from "@/lib/domains/tokens/service";
import { generateTokenString } from "@/lib/domains/tokens/token-string";
import { type CallResult, call, createTestCustomer, type TestCustomer } from "./factory";

const label = (r: AnyRoute) => `${r.method} ${r.path}`;
const randomId = () => `x${randomBytes(8).toString("hex")}`;

/** The path under a version with every parameter filled (random ids unless given). */
/** A value of the parameter's shape: a phone number id is digits (any other text is no route). */
/** A segment a route restricts to a form (its pathMatch: the provider's /{id}) takes digits, a phone number id's form. */
const sampleParam = (r: AnyRoute, name: string) =>
  name === "phoneNumberId" || r.pathMatch?.[name] ? `9${Date.now()}${randomInt(1000)}` : randomId();

function pathOf(r: AnyRoute, version: string, fill: Record<string, string> = {}): string {
  return `/api/${version}${r.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(fill[name] ?? sampleParam(r, name)))}`;
}

/** The contract's code from either error shape (envelope, or provider-shaped). */
function errorCode(res: CallResult): string | undefined {
  return res.body?.error_code ?? res.body?.error?.error_data?.error_code;
}

function expectError(res: CallResult, status: number, code: string, what: string) {
  expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(status);
  expect(errorCode(res), what).toBe(code);
  expect(res.headers.get("x-service-request-id"), what).toMatch(/^req_/);
}

const authed = routes.filter((r) => r.auth !== "public");
const onVersions = authed.flatMap((r) => r.versions.map((version) => ({ r, version, name: `${version} ${label(r)}` })));
const offVersions = routes.flatMap((r) =>
  VERSIONS.filter((v) => !r.versions.includes(v)).map((version) => ({ r, version, name: `${version} ${label(r)}` })),
);
const starterLacks = onVersions.filter(({ r }) => r.feature && !PLAN_FEATURES.starter.includes(r.feature));
const globalOnly = onVersions.filter(({ r }) => r.tokenScope === "global");
// Routes that pick a sender from the request: the router (sender "resolve"), or a GET
// whose path names the sender. (A POST that names it in the path validates its body first.)
const senderPicking = onVersions.filter(
  ({ r }) => r.sender === "resolve" || (r.method === "GET" && /:(senderId|phoneNumberId)\b/.test(r.path)),
);

let c: TestCustomer;
let revoked: string;
let expired: string;
let starter: TestCustomer;
/** Per permission: a restricted global token holding only it, and one holding every other. */
const only = new Map<TokenPermission, string>();
const allBut = new Map<TokenPermission, string>();
beforeAll(async () => {
  c = await createTestCustomer();
  starter = await createTestCustomer({ plan: "starter" });
  const issued = await issueToken({ customerId: c.customer.id, name: "revoked" });
  await revokeToken(systemPrincipal(c.customer.id), issued.record.id);
  revoked = issued.token;
  expired = (await issueToken({ customerId: c.customer.id, name: "expired", expiresAt: new Date(Date.now() - 1) }))
    .token;
  for (const permission of TOKEN_PERMISSIONS) {
    const issue = async (name: string, permissions: TokenPermission[]) =>
      (await issueToken({ customerId: c.customer.id, name, permissions })).token;
    only.set(permission, await issue(`only ${permission}`, [permission]));
    allBut.set(
      permission,
      await issue(
        `all but ${permission}`,
        TOKEN_PERMISSIONS.filter((p) => p !== permission),
      ),
    );
  }
});

const bodyFor = (r: AnyRoute) => (r.method === "POST" ? { body: {} } : {});
/** An upload's text fields alone (multipart/form-data). */
function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}

it("the table is not empty and every route is reachable by this suite", () => {
  expect(authed.length).toBeGreaterThan(0);
  expect(onVersions.length).toBeGreaterThanOrEqual(authed.length);
});

describe.each(onVersions)("$name", ({ r, version }) => {
  it("no token: 401 MISSING_AUTH_TOKEN", async () => {
    expectError(await call(r.method, pathOf(r, version), bodyFor(r)), 401, "MISSING_AUTH_TOKEN", label(r));
  });

  it("a wrong token (header or fallback): 401 INVALID_AUTH_TOKEN", async () => {
    const res = await call(r.method, pathOf(r, version), { ...bodyFor(r), token: generateTokenString() });
    expectError(res, 401, "INVALID_AUTH_TOKEN", label(r));
    // GET takes it in the query, POST in its JSON body; a DELETE only in the header.
    if (r.method === "DELETE") {
      const query = await call("DELETE", pathOf(r, version), { query: { authToken: generateTokenString() } });
      expectError(query, 401, "MISSING_AUTH_TOKEN", `${label(r)} (query)`);
      return;
    }
    const fallback =
      r.method === "GET"
        ? await call("GET", pathOf(r, version), { query: { authToken: generateTokenString() } })
        : await call("POST", pathOf(r, version), { body: { token: generateTokenString() } });
    expectError(fallback, 401, "INVALID_AUTH_TOKEN", `${label(r)} (fallback)`);
  });

  it("a revoked or expired token: 401 INVALID_AUTH_TOKEN", async () => {
    for (const token of [revoked, expired]) {
      expectError(
        await call(r.method, pathOf(r, version), { ...bodyFor(r), token }),
        401,
        "INVALID_AUTH_TOKEN",
        label(r),
      );
    }
  });
});

// Restricted tokens (docs/tokens.md "Restricted tokens"): every route names the permission it
// needs; a token holding every permission but that one is refused naming it, a token holding
// only that one is let through (to whatever the empty request then answers).
it("every route of the table names a token permission (the public ones none)", () => {
  const vocabulary: readonly (string | undefined)[] = TOKEN_PERMISSIONS;
  const wrong = routes.filter((r) =>
    r.auth === "public" ? r.permission !== undefined : !vocabulary.includes(r.permission),
  );
  expect(wrong.map(label)).toEqual([]);
  // And each permission is needed somewhere (no checkbox that grants nothing).
  const used = new Set(routes.map((r) => r.permission));
  expect(TOKEN_PERMISSIONS.filter((p) => !used.has(p))).toEqual([]);
});

describe.each(onVersions)("$name (restricted token)", ({ r, version }) => {
  const needed = r.permission as TokenPermission;

  it("without the route's permission: 403 TOKEN_PERMISSION_DENIED naming it", async () => {
    const res = await call(r.method, pathOf(r, version), { ...bodyFor(r), token: allBut.get(needed) });
    expectError(res, 403, "TOKEN_PERMISSION_DENIED", label(r));
    // The envelope's details name it; a provider-shaped error's message does.
    if (r.errorStyle === "provider") expect(res.body.error.error_data.details, label(r)).toContain(`"${needed}"`);
    else expect(res.body.details?.permission, label(r)).toBe(needed);
  });

  it("with only the route's permission: not refused for it", async () => {
    const res = await call(r.method, pathOf(r, version), { ...bodyFor(r), token: only.get(needed) });
    expect(errorCode(res), `${label(r)}: ${JSON.stringify(res.body)}`).not.toBe("TOKEN_PERMISSION_DENIED");
    expect(res.status, `${label(r)}: ${JSON.stringify(res.body)}`).not.toBe(403);
  });
});

describe.each(starterLacks)("$name (feature the starter plan lacks)", ({ r, version }) => {
  it("a starter-plan token: 403 FEATURE_NOT_AVAILABLE", async () => {
    const res = await call(r.method, pathOf(r, version), { ...bodyFor(r), token: starter.globalToken });
    expectError(res, 403, "FEATURE_NOT_AVAILABLE", label(r));
  });
});

describe.each(globalOnly)("$name (global token only)", ({ r, version }) => {
  it("a number-scoped token: 403 TOKEN_SCOPE_NOT_ALLOWED", async () => {
    const res = await call(r.method, pathOf(r, version), { ...bodyFor(r), token: c.scopedToken });
    expectError(res, 403, "TOKEN_SCOPE_NOT_ALLOWED", label(r));
  });
});

describe.each(senderPicking)("$name (number-scoped token on another sender)", ({ r, version }) => {
  it("is refused with 403", async () => {
    const other = { senderId: c.otherSender.phoneNumber, phoneNumberId: c.otherSender.phoneNumberId ?? "" };
    const where =
      r.method === "GET"
        ? { query: { senderId: other.senderId } }
        : r.upload
          ? { form: formOf({ senderId: other.senderId }) }
          : { body: { senderId: other.senderId } };
    const res = await call(r.method, pathOf(r, version, other), { ...where, token: c.scopedToken });
    // Billing names it SENDER_NOT_ALLOWED (docs/api/authentication.md); everything else TOKEN_SCOPE_NOT_ALLOWED.
    const code = r.path.startsWith("/billing") ? "SENDER_NOT_ALLOWED" : "TOKEN_SCOPE_NOT_ALLOWED";
    expectError(res, 403, code, label(r));
  });
});

describe.each(offVersions)("$name (not on this version)", ({ r, version }) => {
  it("404 NOT_FOUND with the envelope, even with a valid token", async () => {
    const res = await call(r.method, pathOf(r, version), { ...bodyFor(r), token: c.globalToken });
    expectError(res, 404, "NOT_FOUND", label(r));
    expect(res.body.metadata.apiVersion).toBe(version);
  });
});

// Every path of the table, per version: a method it does not have (DELETE where the path has
// none, PUT everywhere) is 405 with Allow naming exactly the methods it has.
const shapeOf = (path: string) => path.replace(/:[A-Za-z0-9_]+/g, ":");
const pathsByVersion = [
  ...new Map(
    routes.flatMap((r) =>
      r.versions.map((version) => {
        const methods = routes
          .filter((o) => o.versions.includes(version) && shapeOf(o.path) === shapeOf(r.path))
          .map((o) => o.method);
        return [`${version} ${shapeOf(r.path)}`, { r, version, allow: [...new Set(methods)].sort() }] as const;
      }),
    ),
  ).values(),
].map((x) => ({ ...x, name: `${x.version} ${x.r.path}` }));

describe.each(pathsByVersion)("$name (methods)", ({ r, version, allow }) => {
  it("DELETE (where it has none) and PUT: 405 with Allow and error_code REQUEST_FAILED", async () => {
    const has: readonly string[] = allow;
    for (const method of ["DELETE", "PUT"].filter((m) => !has.includes(m))) {
      const res = await call(method, pathOf(r, version), { token: c.globalToken });
      expectError(res, 405, "REQUEST_FAILED", `${method} ${label(r)}`);
      expect(res.headers.get("allow")?.split(", ").sort()).toEqual(allow);
    }
  });
});
