import type { NextRequest } from "next/server";
import NextAuth from "next-auth";
import { authOptions } from "@/lib/dashboard/next-auth";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built per request so the secret is read at run time, never at build time.
function handler(request: NextRequest, ctx: Ctx): Promise<Response> {
  return NextAuth(authOptions())(request, ctx);
}

export { handler as GET, handler as POST };
