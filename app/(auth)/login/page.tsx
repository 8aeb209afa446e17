import type { Metadata } from "next";
import Link from "next/link";
import { card, link } from "@/components/ui/classes";
import { LoginForm } from "./login-form";

export const metadata: Metadata = { title: "Sign in · Switchboard" };

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

// Only same-site paths are accepted as the place to return to after signing in; by default
// the home page, which sends each role to its first page (app/(dashboard)/page.tsx).
function safeCallback(value: string | string[] | undefined): string {
  const v = Array.isArray(value) ? value[0] : value;
  return v?.startsWith("/") && !v.startsWith("//") ? v : "/";
}

export default async function LoginPage({ searchParams }: Props) {
  const sp = await searchParams;
  return (
    <section className={card} aria-labelledby="login-title">
      <h1 id="login-title" className="mb-4 text-xl font-semibold">
        Sign in
      </h1>
      <LoginForm callbackUrl={safeCallback(sp.callbackUrl)} />
      <p className="mt-4 text-sm">
        <Link className={link} href="/forgot-password">
          Forgot password?
        </Link>
      </p>
      <p className="mt-2 text-sm">
        New here?{" "}
        <Link className={link} href="/signup">
          Create an account
        </Link>
      </p>
    </section>
  );
}
