// Dashboard session -> the same Principal an API token resolves to.

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import { cache } from "react";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { authOptions } from "./next-auth";
import type { Principal } from "./principal";
import { servedOverHttps } from "./secure-cookies";

type SessionIds = { userId?: string; customerId?: string };

/**
 * The signed-in user's principal, or null (no session, user removed, customer suspended).
 * Cached per request: the layout and the page both ask.
 */
export const getSessionPrincipal = cache(async (): Promise<Principal | null> => {
  const secure = servedOverHttps(await headers());
  const session = (await getServerSession(authOptions(secure))) as SessionIds | null;
  if (!session?.userId || !session.customerId) return null;
  const user = await db.user.findFirst({
    where: { id: session.userId, customerId: session.customerId },
    select: { id: true, customer: { select: { id: true, plan: true, status: true } } },
  });
  if (user?.customer.status !== "ACTIVE") return null;
  return {
    customerId: user.customer.id,
    plan: user.customer.plan,
    via: "session",
    userId: user.id,
    scopedSenderId: null,
  };
});

/** For pages and server actions: sends the browser to /login without a session. */
export async function requirePrincipal(): Promise<Principal> {
  const p = await getSessionPrincipal();
  if (!p) redirect("/login");
  return p;
}

/** For app/api/dashboard/* handlers: a 401 instead of a redirect. */
export async function requireApiPrincipal(): Promise<Principal> {
  const p = await getSessionPrincipal();
  if (!p) throw new ApiError("UNAUTHORIZED", "Sign in to continue");
  return p;
}
