// Every /api path no other handler serves (/api/v2x/..., /api/v4/..., /api/dashboard/nope,
// /api/provider/other): the router's 404 envelope, as the front server answers them under
// `npm start` (lib/http/front-server.ts). Without it `next start` alone would answer
// those paths with its HTML 404 page (docs/architecture.md "Errors"). More specific
// folders (v2, v3, auth, dashboard, provider/webhook) win over this catch-all.
import { nextApiHandler } from "@/lib/api/next-mount";

export const dynamic = "force-dynamic";
export const GET = nextApiHandler;
export const HEAD = nextApiHandler;
export const POST = nextApiHandler;
export const PUT = nextApiHandler;
export const PATCH = nextApiHandler;
export const DELETE = nextApiHandler;
export const OPTIONS = nextApiHandler;
