// A dashboard session's ids -> the same Principal an API token resolves to (the Next.js
// side that reads the session is lib/dashboard/session.ts).
import { db } from "@/lib/db";
import type { Principal } from "./principal";

export type SessionIds = { userId?: string; customerId?: string };

/** null when the session names no user, the user was removed or the customer is suspended. */
export async function principalForSession(session: SessionIds | null): Promise<Principal | null> {
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
}
