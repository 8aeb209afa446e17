// The address in audit entries (docs/security.md "Audit log", "Client addresses"), written
// through each actor's real adapter: the dashboard's server actions (signed in, and the
// public ones a link opens) with the headers Next hands them, the router with the client
// address its server resolved, and the operator CLI. Only next-auth's session read and
// next/headers are replaced (outside Next there is no request scope).
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/lib/cli/run";
import { CLIENT_ADDRESS_HEADER, signedClientAddress } from "@/lib/core/client-ip";
import { db } from "@/lib/db";
import { createInvitation } from "@/lib/domains/members/invitations";
import { requestPasswordReset } from "@/lib/domains/security/passwords";
import { principalForSession } from "@/lib/domains/security/session-principal";
import { nextRequest } from "@/test/next-request-double";
import { call, createTestCustomer, type TestCustomer } from "./factory";
import { createMemberOf, latestLinkTo, type TestMember, tokenOf } from "./member-fixtures";

const { createTokenAction } = await import("@/app/(dashboard)/tokens/actions");
const { resetPasswordAction } = await import("@/app/(auth)/reset-password/[token]/actions");
const { acceptInvitationAction } = await import("@/app/(auth)/invite/[token]/actions");

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36";

/** The request as Next hands it to a server action: the address its server signed, the browser's user agent. */
function fromBrowser(address: string) {
  nextRequest.headers = new Headers({
    host: "dash.test",
    "user-agent": BROWSER,
    [CLIENT_ADDRESS_HEADER]: signedClientAddress(address) ?? "",
  });
}

const entry = async (customerId: string, action: string, targetUid?: string) =>
  db.auditEvent.findFirstOrThrow({
    where: { customerId, action, ...(targetUid ? { targetUid } : {}) },
    orderBy: { createdAt: "desc" },
  });

let t: TestCustomer;
let owner: TestMember;
beforeAll(async () => {
  t = await createTestCustomer();
  owner = await createMemberOf(t.customer.id, "owner");
});

describe("the address of each actor's entries", () => {
  it("a member's change in the dashboard: the browser's address and user agent", async () => {
    nextRequest.session = owner.session;
    fromBrowser("203.0.113.40");
    const created = await createTokenAction({ name: "from the dashboard" });
    expect(created.ok).toBe(true);
    const row = await entry(t.customer.id, "token.created");
    expect(row).toMatchObject({ actorType: "member", actorEmail: owner.email, ip: "203.0.113.40", userAgent: BROWSER });
  });

  it("a reset link's new password and an invitation accepted: the address of the browser that opened the link", async () => {
    const member = await createMemberOf(t.customer.id, "developer");
    await requestPasswordReset("203.0.113.41", member.email);
    fromBrowser("203.0.113.42");
    const reset = await resetPasswordAction({
      token: tokenOf(await latestLinkTo(member.email)),
      password: "a-new-long-password",
    });
    expect(reset.ok).toBe(true);
    expect(await entry(t.customer.id, "member.password_reset", member.email)).toMatchObject({
      ip: "203.0.113.42",
      userAgent: BROWSER,
    });

    const ownerP = await principalForSession(owner.session);
    if (!ownerP) throw new Error("no principal for the owner");
    const invitee = `invitee-${Date.now()}@example.test`;
    await createInvitation(ownerP, { email: invitee, role: "agent", senders: [] });
    fromBrowser("2001:db8::43");
    const joined = await acceptInvitationAction({
      token: tokenOf(await latestLinkTo(invitee)),
      password: "a-long-password-9",
    });
    expect(joined.ok).toBe(true);
    expect(await entry(t.customer.id, "member.joined")).toMatchObject({ actorEmail: invitee, ip: "2001:db8::43" });
  });

  it("an API token's change: the address the API's server resolved", async () => {
    const res = await call("POST", "/api/v3/webhooks", {
      token: t.globalToken,
      ip: "198.51.100.44",
      body: { webhook: { name: "audited", endpointUrl: "https://example.com/hook", events: ["message.status.sent"] } },
    });
    expect(res.status).toBe(200);
    expect(await entry(t.customer.id, "webhook.created", res.body.data.webhookUid)).toMatchObject({
      actorType: "api_token",
      ip: "198.51.100.44",
    });
  });

  it("the operator CLI's change: no address (no network client: the operator runs it on the deployment)", async () => {
    const out: string[] = [];
    const code = await runCli(["token:create", "--customer", t.customer.id, "--name", "from the cli", "--json"], {
      out: (s) => out.push(s),
      err: (s) => out.push(s),
    });
    expect(code, out.join("")).toBe(0);
    const { tokenId } = JSON.parse(out.join("")) as { tokenId: string };
    expect(await entry(t.customer.id, "token.created", tokenId)).toMatchObject({
      actorType: "operator",
      ip: null,
      userAgent: null,
    });
  });
});
