import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "@/lib/dashboard/next-auth";
import { servedOverHttps } from "@/lib/dashboard/secure-cookies";
import { clientIpFrom } from "@/lib/http/client-ip";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built per request so the secret is read at run time, never at build time.
// The login limiter keys on the client address: the front server (npm start) sets
// X-Forwarded-For itself, and lib/http/client-ip.ts says which entry to believe.
function handler(request: NextRequest, ctx: Ctx): Promise<Response> {
  const ip = clientIpFrom(request.headers.get("x-forwarded-for"), undefined);
  return NextAuth(authOptions(servedOverHttps(request.headers), ip, request.headers.get("user-agent")))(request, ctx);
}

export { handler as GET, handler as POST };
