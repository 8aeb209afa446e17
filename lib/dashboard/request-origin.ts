// The client address (lib/core/client-ip.ts) and user agent of the dashboard request
// being served, as the audit log records them (docs/security.md "Audit log").
import { headers } from "next/headers";
import { requestClientIp, UNKNOWN_CLIENT } from "@/lib/core/client-ip";
import type { RequestOrigin } from "@/lib/domains/auth/principal";

export function originFrom(h: Headers): RequestOrigin {
  const ip = requestClientIp(h);
  return { ip: ip === UNKNOWN_CLIENT ? null : ip, userAgent: h.get("user-agent") };
}

/** Where the current server action or page request comes from. */
export async function requestOrigin(): Promise<RequestOrigin> {
  return originFrom(await headers());
}
