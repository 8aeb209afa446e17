import { nextApiHandler } from "@/lib/api/next-mount";

export const dynamic = "force-dynamic";
export const GET = nextApiHandler;
export const POST = nextApiHandler;
export const PUT = nextApiHandler;
export const PATCH = nextApiHandler;
export const DELETE = nextApiHandler;
