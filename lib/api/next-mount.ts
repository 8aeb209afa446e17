// Mounts the API router as Next.js route handlers (app/api/v2 and app/api/v3): what serves
// the API under `npm run dev` or `next start` alone (`npm start` serves it from the front
// server, lib/http/front-server.ts, which knows the socket address). A route handler never
// sees the socket: the address comes signed by the process that does (lib/core/client-ip.ts).
import { requestClientIp } from "@/lib/core/client-ip";
import { handleApiRequest, type SessionAuth } from "./router";

export const nextClientIp = (request: Request) => requestClientIp(request.headers);

export async function nextApiHandler(request: Request): Promise<Response> {
  return handleApiRequest(request, { clientIp: nextClientIp(request) });
}

/**
 * The router's session routes for the dashboard's browser code (app/api/dashboard/[...path]):
 * `session` is the dashboard's guard and member check (lib/dashboard), which this layer does
 * not import.
 */
export function nextSessionApiHandler(session: SessionAuth) {
  // Next's context (the catch-all's segments) is not needed: the router reads the URL.
  return (request: Request, _context?: unknown): Promise<Response> =>
    handleApiRequest(request, { clientIp: nextClientIp(request), session });
}
