// The page a reset email's link opens (docs/security.md "Password reset"). The token is in
// the path: the page sends no Referer, so it never leaves for another site.
import type { Metadata } from "next";
import Link from "next/link";
import { card, link, muted } from "@/components/ui/classes";
import { resetLinkEmail } from "@/lib/domains/security/passwords";
import { ResetForm } from "./reset-form";

export const metadata: Metadata = {
  title: "Choose a new password · Switchboard",
  referrer: "no-referrer",
  robots: { index: false, follow: false },
};
export const dynamic = "force-dynamic";

type Props = { params: Promise<{ token: string }> };

export default async function ResetPasswordPage({ params }: Props) {
  const { token } = await params;
  const email = await resetLinkEmail(token);
  return (
    <section className={card} aria-labelledby="reset-title">
      {email ? (
        <>
          <h1 id="reset-title" className="text-xl font-semibold">
            Choose a new password
          </h1>
          <p className={`mt-1 mb-4 ${muted}`}>For {email}. Every session of this account is signed out.</p>
          <ResetForm token={token} email={email} />
        </>
      ) : (
        <>
          <h1 id="reset-title" className="text-xl font-semibold">
            This reset link cannot be used
          </h1>
          <p className="mt-2">
            It was used already, replaced by a newer one, or is older than an hour.{" "}
            <Link className={link} href="/forgot-password">
              Ask for a new link
            </Link>
            .
          </p>
        </>
      )}
    </section>
  );
}
