// The page an invitation's link opens (docs/members.md "Invitations"): who invites to which
// account and role, then a password to join; an expired, revoked or used link says so.
// The token is in the path: the page sends no Referer, so it never leaves for another site.
import type { Metadata } from "next";
import Link from "next/link";
import { card, link, muted } from "@/components/ui/classes";
import { invitationForToken } from "@/lib/domains/members/invitations";
import { AcceptForm } from "./accept-form";

export const metadata: Metadata = {
  title: "Join an account · Switchboard",
  referrer: "no-referrer",
  robots: { index: false, follow: false },
};
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

const ENDED: Record<string, string> = {
  accepted: "This invitation was already used. If it was you, sign in with the password you chose.",
  expired: "This invitation has expired (links work for 7 days). Ask whoever invited you to send it again.",
  revoked: "This invitation was revoked. Ask an owner or admin of the account for a new one.",
};

export default async function InvitationPage({ params }: Props) {
  const { token } = await params;
  const view = await invitationForToken(token);
  return (
    <section className={card} aria-labelledby="invite-title">
      {view?.state === "pending" ? (
        <>
          <h1 id="invite-title" className="text-xl font-semibold">
            Join {view.accountName}
          </h1>
          <p className={`mt-1 mb-4 ${muted}`}>
            You are invited as <strong>{view.role}</strong>. Choose a password to join; you are signed in at once.
          </p>
          <AcceptForm token={token} email={view.email} />
        </>
      ) : (
        <>
          <h1 id="invite-title" className="text-xl font-semibold">
            This invitation cannot be used
          </h1>
          <p className="mt-2">{view ? ENDED[view.state] : "This invitation link is not valid."}</p>
        </>
      )}
      <p className="mt-4 text-sm">
        Already a member?{" "}
        <Link className={link} href="/login">
          Sign in
        </Link>
      </p>
    </section>
  );
}
