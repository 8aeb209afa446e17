import { env } from "@/lib/core/env";

/** The key of clients whose address is not known (every such client shares one budget). */
export const UNKNOWN_CLIENT = "unknown";

/**
 * The client address: the socket's; behind a trusted proxy (TRUST_PROXY), the last
 * X-Forwarded-For entry, which that proxy appended (entries before it are the client's
 * own and can be anything). Without TRUST_PROXY the header is never read: where the
 * socket is not known either (a Next.js route handler), every client is UNKNOWN_CLIENT,
 * so a per-IP limit is shared, never a header away from bypassed.
 */
export function clientIpFrom(forwardedFor: string | null | undefined, socketIp: string | undefined): string {
  if (env().TRUST_PROXY) {
    const forwarded = forwardedFor?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return socketIp || UNKNOWN_CLIENT;
}
