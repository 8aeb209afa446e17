// Server-side sessions through next-auth's own core (docs/security.md "Sessions"): a real
// sign-in (csrf, credentials callback) issues a real JWT cookie; the real dashboard handler
// reads it; signing out (next-auth's signout) ends the session on the server, so the SAME
// cookie, kept by whoever copied it, reads nothing any more; so does a session ended from
// elsewhere, and every other session of a member who turns on two-factor or changes their
// password. next-auth's handler runs in its (req, res) form with plain objects; only
// getServerSession's cookie lookup is replaced (outside Next it has no request scope): it
// decodes the cookie with next-auth's own decode and our session callback.
import NextAuth from "next-auth";
import { decode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/core/env";
import { authOptions } from "@/lib/dashboard/next-auth";
import { changePassword } from "@/lib/domains/security/passwords";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { endSessionById } from "@/lib/domains/security/sessions";
import { totpCode } from "@/lib/domains/security/totp";
import { beginTwoFactorSetup, confirmTwoFactor } from "@/lib/domains/security/two-factor";
import { createTestCustomer, type TestCustomer } from "./factory";
import { createMemberOf, type TestMember } from "./member-fixtures";
import { nextRequest } from "./next-request-double";

// The session cookie this test's browser sends; getServerSession decodes it.
const jar = { sessionToken: undefined as string | undefined };
nextRequest.getServerSession = async (options) => {
  if (!jar.sessionToken) return null;
  const token = await decode({ token: jar.sessionToken, secret: String(options.secret) });
  if (!token) return null;
  return options.callbacks?.session?.({ session: { expires: "" }, token } as never);
};

const { GET: listConversations } = await import("@/app/api/dashboard/[...path]/route");

const HEADERS = { host: "dash.test", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36" };
const SESSION_COOKIE = "next-auth.session-token";

type Cookies = Record<string, string>;

/** One call of next-auth's handler (its API-route form); the cookies it sets. */
async function auth(
  method: "GET" | "POST",
  action: string,
  cookies: Cookies,
  body: Record<string, string> = {},
  providerId?: string,
) {
  const headers: Record<string, string | string[]> = {};
  let status = 200;
  let sent: unknown;
  const res = {
    status(code: number) {
      status = code;
      return res;
    },
    setHeader(name: string, value: string | string[]) {
      headers[name.toLowerCase()] = value;
      return res;
    },
    getHeader: (name: string) => headers[name.toLowerCase()],
    json(value: unknown) {
      sent = value;
    },
    send(value: unknown) {
      sent = value;
    },
    end() {},
  };
  const req = {
    method,
    query: { nextauth: providerId ? [action, providerId] : [action] },
    cookies,
    headers: HEADERS,
    body,
  };
  await (NextAuth as unknown as (q: unknown, r: unknown, o: unknown) => Promise<void>)(
    req,
    res,
    authOptions(false, "203.0.113.7"),
  );
  const set: Cookies = {};
  for (const line of [headers["set-cookie"] ?? []].flat()) {
    const [pair = ""] = line.split(";");
    const at = pair.indexOf("=");
    set[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1));
  }
  return { status, body: sent, set };
}

/** Signs in through next-auth's credentials callback (with a two-factor code when given); the cookies a browser would keep. */
async function signIn(m: TestMember, code?: string): Promise<Cookies> {
  const csrf = await auth("GET", "csrf", {});
  const csrfToken = (csrf.body as { csrfToken: string }).csrfToken;
  const jarCookies = { ...csrf.set };
  const cb = await auth(
    "POST",
    "callback",
    jarCookies,
    { csrfToken, email: m.email, password: m.password, json: "true", ...(code ? { code } : {}) },
    "credentials",
  );
  expect(cb.set[SESSION_COOKIE], `sign-in failed: ${JSON.stringify(cb.body)}`).toBeTruthy();
  return { ...jarCookies, ...cb.set };
}

async function signOut(cookies: Cookies): Promise<void> {
  const csrf = await auth("GET", "csrf", cookies);
  const csrfToken = (csrf.body as { csrfToken: string }).csrfToken;
  const out = await auth("POST", "signout", { ...cookies, ...csrf.set }, { csrfToken });
  // The browser's cookie is cleared...
  expect(out.set[SESSION_COOKIE]).toBe("");
}

/** GET /api/dashboard/conversations with this session cookie (as a copied cookie would be sent). */
async function readConversations(sessionToken: string | undefined): Promise<number> {
  jar.sessionToken = sessionToken;
  const res = await listConversations(new Request("http://dash.test/api/dashboard/conversations"), {});
  return res.status;
}

let t: TestCustomer;
let owner: TestMember;
beforeAll(async () => {
  t = await createTestCustomer();
  owner = await createMemberOf(t.customer.id, "owner");
});

describe("a dashboard session", () => {
  it("carries a server-side session id in its JWT, with the device and address recorded", async () => {
    const cookies = await signIn(owner);
    const token = await decode({ token: cookies[SESSION_COOKIE], secret: env().NEXTAUTH_SECRET ?? "" });
    expect(token?.sessionId).toMatch(/^ses_/);
    const { db } = await import("@/lib/db");
    const row = await db.userSession.findUniqueOrThrow({ where: { id: String(token?.sessionId) } });
    expect(row).toMatchObject({ userId: owner.userId, device: "Chrome on Linux", ip: "203.0.113.7", endedAt: null });
  });

  it("signing out ends it on the server: the kept cookie is refused on its next request", async () => {
    const cookies = await signIn(owner);
    const kept = cookies[SESSION_COOKIE];
    expect(await readConversations(kept)).toBe(200);
    await signOut(cookies);
    expect(await readConversations(kept)).toBe(401);
  });

  it("a session ended elsewhere is refused on its next request; the member's other session is not", async () => {
    const here = await signIn(owner);
    const there = await signIn(owner);
    const ended = await decode({ token: there[SESSION_COOKIE], secret: env().NEXTAUTH_SECRET ?? "" });
    expect(await readConversations(there[SESSION_COOKIE])).toBe(200);
    await endSessionById(String(ended?.sessionId), "ended");
    expect(await readConversations(there[SESSION_COOKIE])).toBe(401);
    expect(await readConversations(here[SESSION_COOKIE])).toBe(200);
  });

  it("turning on two-factor, then changing the password, each end the member's other cookies, not this one", async () => {
    const m = await createMemberOf(t.customer.id, "admin");
    const here = await signIn(m);
    const principal = async () => {
      const token = await decode({ token: here[SESSION_COOKIE], secret: env().NEXTAUTH_SECRET ?? "" });
      const p = await principalForSession({
        userId: String(token?.userId),
        customerId: String(token?.customerId),
        sessionId: String(token?.sessionId),
      });
      if (!p) throw new Error("no principal for this cookie");
      return p;
    };
    const before2fa = await signIn(m);
    expect(await readConversations(before2fa[SESSION_COOKIE])).toBe(200);
    const { secret } = await beginTwoFactorSetup(await principal());
    await confirmTwoFactor(await principal(), totpCode(secret, Date.now() - 30_000));
    expect(await readConversations(before2fa[SESSION_COOKIE])).toBe(401);
    expect(await readConversations(here[SESSION_COOKIE])).toBe(200);

    // Signed in again elsewhere (now with a code), then the password changes here.
    const elsewhere = await signIn(m, totpCode(secret));
    expect(await readConversations(elsewhere[SESSION_COOKIE])).toBe(200);
    await changePassword(await principal(), m.password, "a changed long password");
    expect(await readConversations(elsewhere[SESSION_COOKIE])).toBe(401);
    expect(await readConversations(here[SESSION_COOKIE])).toBe(200);
  });

  it("a JWT without a session id (issued before sessions were recorded) is refused", async () => {
    const { encode } = await import("next-auth/jwt");
    const legacy = await encode({
      token: { userId: owner.userId, customerId: t.customer.id },
      secret: env().NEXTAUTH_SECRET ?? "",
    });
    expect(await readConversations(legacy)).toBe(401);
  });
});
