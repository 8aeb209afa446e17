// Mounts the API router as Next.js route handlers (app/api/v2 and app/api/v3).
import { clientIpFrom } from "@/lib/http/client-ip";
import { handleApiRequest } from "./router";

export async function nextApiHandler(request: Request): Promise<Response> {
  return handleApiRequest(request, { clientIp: clientIpFrom(request.headers.get("x-forwarded-for"), undefined) });
}
