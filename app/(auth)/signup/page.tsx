import type { Metadata } from "next";
import Link from "next/link";
import { card, link } from "@/components/ui/classes";
import { SignupForm } from "./signup-form";

export const metadata: Metadata = { title: "Create an account · Switchboard" };

export default function SignupPage() {
  return (
    <section className={card} aria-labelledby="signup-title">
      <h1 id="signup-title" className="mb-4 text-xl font-semibold">
        Create an account
      </h1>
      <SignupForm />
      <p className="mt-4 text-sm">
        Already have an account?{" "}
        <Link className={link} href="/login">
          Sign in
        </Link>
      </p>
    </section>
  );
}
