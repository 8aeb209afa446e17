// Mounts the API router as Next.js route handlers (app/api/v2 and app/api/v3): what serves
// the API under `npm run dev` or `next start` alone (`npm start` serves it from the front
// server, lib/http/front-server.ts, which knows the socket address). A route handler never
// sees the socket, and Next keeps a client's own X-Forwarded-For: it is trusted only under
// TRUST_PROXY (lib/http/client-ip.ts).
import { clientIpFrom } from "@/lib/http/client-ip";
import { handleApiRequest } from "./router";

export const nextClientIp = (request: Request) => clientIpFrom(request.headers.get("x-forwarded-for"), undefined);

export async function nextApiHandler(request: Request): Promise<Response> {
  return handleApiRequest(request, { clientIp: nextClientIp(request) });
}
