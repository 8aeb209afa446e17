// Links in emails point at the dashboard's configured address (NEXTAUTH_URL, else
// PUBLIC_URL), never at a request's Host header (which a client chooses).
import { env } from "@/lib/core/env";

export function dashboardLink(path: string): string {
  const { NEXTAUTH_URL, PUBLIC_URL } = env();
  const base = (NEXTAUTH_URL ?? PUBLIC_URL ?? "http://localhost:3000").replace(/\/+$/, "");
  return `${base}${path.startsWith("/") ? path : `/${path}`}`;
}
