import { env } from "@/lib/env";

/**
 * The client address: the socket's; behind a trusted proxy (TRUST_PROXY), the last
 * X-Forwarded-For entry, which that proxy appended (entries before it are the client's
 * own and can be anything).
 */
export function clientIpFrom(forwardedFor: string | null | undefined, socketIp: string | undefined): string {
  if (env().TRUST_PROXY || !socketIp) {
    const forwarded = forwardedFor?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return socketIp ?? "unknown";
}
