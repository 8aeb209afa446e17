import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { requestClientIp } from "@/lib/core/client-ip";
import { authOptions } from "@/lib/dashboard/next-auth";
import { servedOverHttps } from "@/lib/dashboard/secure-cookies";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built per request so the secret is read at run time, never at build time.
// The login limiter keys on the client address (lib/core/client-ip.ts says how it gets here).
function handler(request: NextRequest, ctx: Ctx): Promise<Response> {
  const ip = requestClientIp(request.headers);
  return NextAuth(authOptions(servedOverHttps(request.headers), ip, request.headers.get("user-agent")))(request, ctx);
}

export { handler as GET, handler as POST };
