// next-auth options: Credentials provider (password, then the second factor when it is on),
// JWT sessions carrying the user and customer ids and the id of the server-side session row
// checked on every request (docs/security.md "Sessions"); signing out ends that row.

import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { UNKNOWN_CLIENT } from "@/lib/core/client-ip";
import { minutesOfWait } from "@/lib/core/count";
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { LoginInput } from "@/lib/domains/auth/schemas";
import { attemptLogin } from "@/lib/domains/security/credentials";
import { endSessionById, openSession } from "@/lib/domains/security/sessions";
import { servedOverHttps } from "./secure-cookies";

export const WRONG_CREDENTIALS = "Wrong email or password. Check both and try again.";
/** The error the login form reads as "ask for the code now" (the password was right). */
export const TWO_FACTOR_REQUIRED = "TWO_FACTOR_REQUIRED";
export const WRONG_CODE = "That code is not valid. Enter the current code from your app, or a recovery code.";

const SignInForm = LoginInput.extend({ code: z.string().trim().max(20).optional() });

const headerOf = (req: unknown, name: string): string | null => {
  const headers = (req as { headers?: Record<string, string | string[] | undefined> } | undefined)?.headers;
  const value = headers?.[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
};

/**
 * `secure`: served over HTTPS (secure-cookies.ts), so the cookies are Secure. `clientIp`:
 * the caller's address for the login limiter and the session record (the route handler
 * reads it as lib/core/client-ip.ts says) and `userAgent`, which the audit log records with
 * the sign-in and the session keeps as its device; session reads need neither.
 */
export function authOptions(
  secure = servedOverHttps(undefined),
  clientIp = UNKNOWN_CLIENT,
  userAgent: string | null = null,
): NextAuthOptions {
  return {
    secret: env().NEXTAUTH_SECRET,
    useSecureCookies: secure,
    session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
          code: { label: "Two-factor code", type: "text" },
        },
        async authorize(credentials, req) {
          const parsed = SignInForm.safeParse(credentials ?? {});
          if (!parsed.success) throw new Error(WRONG_CREDENTIALS);
          const { email, password, code } = parsed.data;
          const outcome = await attemptLogin(clientIp, email, password, userAgent, code || undefined);
          if (!outcome.ok && outcome.reason === "rate_limited") {
            throw new Error(`Too many sign-in attempts. Try again in ${minutesOfWait(outcome.retryAfterSeconds)}.`);
          }
          if (!outcome.ok && outcome.reason === "code_required") throw new Error(TWO_FACTOR_REQUIRED);
          if (!outcome.ok && outcome.reason === "wrong_code") throw new Error(WRONG_CODE);
          if (!outcome.ok) throw new Error(WRONG_CREDENTIALS);
          const { user } = outcome;
          const sessionId = await openSession({
            userId: user.id,
            customerId: user.customerId,
            ip: clientIp === UNKNOWN_CLIENT ? null : clientIp,
            userAgent: userAgent ?? headerOf(req, "user-agent"),
          });
          return { id: user.id, email: user.email, name: user.name, customerId: user.customerId, sessionId };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user && "customerId" in user && typeof user.customerId === "string") {
          token.userId = user.id;
          token.customerId = user.customerId;
          token.sessionId = "sessionId" in user && typeof user.sessionId === "string" ? user.sessionId : undefined;
        }
        return token;
      },
      async session({ session, token }) {
        return {
          ...session,
          userId: typeof token.userId === "string" ? token.userId : undefined,
          customerId: typeof token.customerId === "string" ? token.customerId : undefined,
          sessionId: typeof token.sessionId === "string" ? token.sessionId : undefined,
        };
      },
    },
    events: {
      // Signing out ends the session on the server: the cookie, if kept, reads nothing more.
      async signOut({ token }) {
        if (typeof token?.sessionId !== "string") return;
        await endSessionById(token.sessionId, "signed_out").catch((err) =>
          log.error({ err }, "could not end a session"),
        );
      },
    },
  };
}
