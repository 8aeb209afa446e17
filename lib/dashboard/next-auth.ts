// next-auth options: Credentials provider, JWT sessions carrying the user and customer ids.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { env } from "@/lib/core/env";
import { attemptLogin } from "@/lib/domains/auth/credentials";
import { LoginInput } from "@/lib/domains/auth/schemas";
import { servedOverHttps } from "./secure-cookies";

export const WRONG_CREDENTIALS = "Wrong email or password. Check both and try again.";

/**
 * `secure`: served over HTTPS (secure-cookies.ts), so the cookies are Secure. `clientIp`:
 * the caller's address for the login limiter (the route handler reads it as
 * lib/http/client-ip.ts says) and `userAgent`, which the audit log records with the sign-in;
 * session reads need neither.
 */
export function authOptions(
  secure = servedOverHttps(undefined),
  clientIp = "unknown",
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
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          const parsed = LoginInput.safeParse(credentials ?? {});
          if (!parsed.success) throw new Error(WRONG_CREDENTIALS);
          const { email, password } = parsed.data;
          const outcome = await attemptLogin(clientIp, email, password, userAgent);
          if (!outcome.ok && outcome.reason === "rate_limited") {
            throw new Error(
              `Too many sign-in attempts. Try again in ${Math.ceil(outcome.retryAfterSeconds / 60)} minutes.`,
            );
          }
          if (!outcome.ok) throw new Error(WRONG_CREDENTIALS);
          const { user } = outcome;
          return { id: user.id, email: user.email, name: user.name, customerId: user.customerId };
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user }) {
        if (user && "customerId" in user && typeof user.customerId === "string") {
          token.userId = user.id;
          token.customerId = user.customerId;
        }
        return token;
      },
      async session({ session, token }) {
        return {
          ...session,
          userId: typeof token.userId === "string" ? token.userId : undefined,
          customerId: typeof token.customerId === "string" ? token.customerId : undefined,
        };
      },
    },
  };
}
