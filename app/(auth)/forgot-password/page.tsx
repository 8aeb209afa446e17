import type { Metadata } from "next";
import Link from "next/link";
import { card, link, muted } from "@/components/ui/classes";
import { ForgotForm } from "./forgot-form";

export const metadata: Metadata = { title: "Forgot password · Switchboard" };

// docs/security.md "Password reset".
export default function ForgotPasswordPage() {
  return (
    <section className={card} aria-labelledby="forgot-title">
      <h1 id="forgot-title" className="text-xl font-semibold">
        Forgot your password?
      </h1>
      <p className={`mt-1 mb-4 ${muted}`}>Enter your email: we send a link to choose a new password.</p>
      <ForgotForm />
      <p className="mt-4 text-sm">
        <Link className={link} href="/login">
          Back to sign in
        </Link>
      </p>
    </section>
  );
}
