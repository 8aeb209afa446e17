"use client";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useRef, useState } from "react";
import { button, input, label, muted } from "@/components/ui/classes";
import { FormAlert } from "@/components/ui/form-alert";

// lib/dashboard/next-auth.ts TWO_FACTOR_REQUIRED: the password was right, now the code.
const TWO_FACTOR_REQUIRED = "TWO_FACTOR_REQUIRED";

/**
 * Email and password; when the member has two-factor on, a second step asks for the code
 * from their app (or a recovery code) and signs in with all three (docs/security.md).
 */
export function LoginForm({ callbackUrl }: { callbackUrl: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);
  // The password stays in memory between the two steps only.
  const firstStep = useRef({ email: "", password: "" });

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (!needsCode) {
      firstStep.current = { email: String(form.get("email") ?? ""), password: String(form.get("password") ?? "") };
    }
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      redirect: false,
      ...firstStep.current,
      ...(needsCode ? { code: String(form.get("code") ?? "") } : {}),
    });
    setPending(false);
    if (result?.error === TWO_FACTOR_REQUIRED) {
      setNeedsCode(true);
      return;
    }
    if (!result || result.error) {
      setError(
        result?.error && result.error !== "CredentialsSignin"
          ? result.error
          : "Wrong email or password. Check both and try again.",
      );
      return;
    }
    router.replace(callbackUrl);
    router.refresh();
  }

  if (needsCode) {
    return (
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <p className={muted}>
          Two-factor authentication is on for {firstStep.current.email}. Enter the 6-digit code from your authenticator
          app, or one of your recovery codes.
        </p>
        <div>
          <label htmlFor="code" className={label}>
            Authentication code
          </label>
          <input
            id="code"
            name="code"
            type="text"
            inputMode="text"
            autoComplete="one-time-code"
            required
            className={input}
          />
        </div>
        <FormAlert message={error} />
        <button type="submit" className={`${button} w-full`} disabled={pending}>
          {pending ? "Checking…" : "Verify and sign in"}
        </button>
      </form>
    );
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <div>
        <label htmlFor="email" className={label}>
          Email
        </label>
        <input id="email" name="email" type="email" autoComplete="email" required className={input} />
      </div>
      <div>
        <label htmlFor="password" className={label}>
          Password
        </label>
        <input
          id="password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          className={input}
        />
      </div>
      <FormAlert message={error} />
      <button type="submit" className={`${button} w-full`} disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </button>
    </form>
  );
}
