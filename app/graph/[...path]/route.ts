// The provider-compatible mount under `npm run dev` or `next start` alone (`npm start` serves
// it from the front server): lib/api/graph-mount.ts.
import { handleGraphRequest } from "@/lib/api/graph-mount";
import { nextClientIp } from "@/lib/api/next-mount";

export const dynamic = "force-dynamic";
const handle = (request: Request) => handleGraphRequest(request, { clientIp: nextClientIp(request) });
export const GET = handle;
export const POST = handle;
