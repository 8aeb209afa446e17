// GET|POST /api/provider/webhook, framework-agnostic: mounted by Next
// (app/api/provider/webhook/route.ts) and by the lean server (lib/http/mounts.ts).
// POST: signature on the raw body (401), full validation (400), then the raw body is
// stored durably and acknowledged; lib/domains/events/ingest/processor.ts does the slow work.
import { readAtMost, TooLargeError } from "@/lib/core/bounded-read";
import { log } from "@/lib/core/log";
import { hotRows } from "@/lib/db";
import { NOW_UTC, newId } from "@/lib/db/sql";
import { notifyExpression } from "@/lib/db/wakeups";
import { Prisma } from "@/lib/generated/prisma/client";
import { cleanCallbackBody } from "./clean";
import { handleHandshake } from "./handshake";
import { parseProviderBody } from "./schemas";
import { SIGNATURE_HEADER, verifyProviderSignature } from "./signature";

export const MAX_BODY_BYTES = 8 * 1024 * 1024;
const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

type Listener = () => void;
const listeners = new Set<Listener>();
/** In-process processors subscribe to be woken when a callback was stored. */
export function onCallbackStored(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function handleProviderWebhook(request: Request): Promise<Response> {
  if (request.method === "GET" || request.method === "HEAD") return handleHandshake(new URL(request.url));
  if (request.method !== "POST") {
    return new Response("Method Not Allowed", { status: 405, headers: { Allow: "GET, POST" } });
  }
  // Counted while it streams: a chunked or mis-declared body stops at the limit.
  let raw: Buffer;
  try {
    raw = await readAtMost(request.body, MAX_BODY_BYTES, request.headers.get("content-length"));
  } catch (error) {
    if (error instanceof TooLargeError) return text(413, "Payload Too Large");
    throw error;
  }
  if (!verifyProviderSignature(raw, request.headers.get(SIGNATURE_HEADER))) return text(401, "Invalid signature");
  // NUL and lone surrogates become U+FFFD: stored and applied, never failing (clean.ts).
  const body = cleanCallbackBody(raw.toString("utf8"));
  try {
    parseProviderBody(body);
  } catch {
    return text(400, "Malformed payload");
  }
  // The provider's whole traffic lands here: plain pg, not the ORM (see hotRows).
  // One statement, so its NOTIFY commits with the row (lib/db/wakeups.ts).
  await hotRows(
    Prisma.sql`WITH stored AS (INSERT INTO "ProviderCallback" ("id", "body", "receivedAt") VALUES (${newId("cb")}, ${body}, ${Prisma.raw(NOW_UTC)}) RETURNING 1)
      SELECT ${Prisma.raw(notifyExpression("callbacks"))} FROM stored`,
  );
  for (const listener of listeners) {
    try {
      listener();
    } catch (error) {
      log.warn({ err: error }, "callback listener failed");
    }
  }
  return text(200, "EVENT_RECEIVED");
}
