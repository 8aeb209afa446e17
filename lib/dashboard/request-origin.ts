// The client address (lib/http/client-ip.ts's rule) and user agent of the dashboard request
// being served, as the audit log records them (docs/security.md "Audit log").
import { headers } from "next/headers";
import type { RequestOrigin } from "@/lib/domains/auth/principal";
import { clientIpFrom } from "@/lib/http/client-ip";

export function originFrom(h: Headers): RequestOrigin {
  return { ip: clientIpFrom(h.get("x-forwarded-for"), undefined), userAgent: h.get("user-agent") };
}

/** Where the current server action or page request comes from. */
export async function requestOrigin(): Promise<RequestOrigin> {
  return originFrom(await headers());
}
