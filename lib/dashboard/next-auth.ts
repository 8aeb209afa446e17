// next-auth options: Credentials provider, JWT sessions carrying the user and customer ids.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { checkCredentials } from "@/lib/auth/credentials";
import { checkLogin, clearLogin, recordFailedLogin } from "@/lib/auth/login-limiter";
import { LoginInput } from "@/lib/auth/schemas";
import { env } from "@/lib/env";

export const WRONG_CREDENTIALS = "Wrong email or password. Check both and try again.";

type HeaderBag = Record<string, string | string[] | undefined> | undefined;

function clientIp(headers: HeaderBag): string {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const forwarded = first(headers?.["x-forwarded-for"])?.split(",")[0]?.trim();
  return forwarded || first(headers?.["x-real-ip"]) || "local";
}

export function authOptions(): NextAuthOptions {
  return {
    secret: env().NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: 7 * 24 * 3600 },
    pages: { signIn: "/login" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          const parsed = LoginInput.safeParse(credentials ?? {});
          if (!parsed.success) throw new Error(WRONG_CREDENTIALS);
          const { email, password } = parsed.data;
          const ip = clientIp(req?.headers as HeaderBag);
          const gate = await checkLogin(ip, email);
          if (!gate.allowed) {
            throw new Error(
              `Too many sign-in attempts. Try again in ${Math.ceil(gate.retryAfterSeconds / 60)} minutes.`,
            );
          }
          const user = await checkCredentials(email, password);
          if (!user) {
            const after = await recordFailedLogin(ip, email);
            if (!after.allowed) {
              throw new Error(
                `Too many sign-in attempts. Try again in ${Math.ceil(after.retryAfterSeconds / 60)} minutes.`,
              );
            }
            throw new Error(WRONG_CREDENTIALS);
          }
          await clearLogin(ip, email);
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
