// Whether the dashboard is served over HTTPS, so next-auth's cookies are `Secure` (and
// carry the __Secure-/__Host- prefixes). One rule for the three places that must agree on
// the cookie names: the next-auth route, getServerSession and the proxy's getToken.
import { env } from "@/lib/core/env";

type HeaderSource = { get(name: string): string | null };

/**
 * NEXTAUTH_URL says https; or, behind a trusted proxy (TRUST_PROXY), the proxy's
 * X-Forwarded-Proto (its last entry: the one it set) says https. A client's own header is
 * never believed without TRUST_PROXY.
 */
export function servedOverHttps(headers: HeaderSource | undefined): boolean {
  const { NEXTAUTH_URL, TRUST_PROXY } = env();
  if (NEXTAUTH_URL?.startsWith("https://")) return true;
  if (!TRUST_PROXY || !headers) return false;
  return headers.get("x-forwarded-proto")?.split(",").at(-1)?.trim().toLowerCase() === "https";
}
