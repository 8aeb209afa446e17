// GET|POST /api/provider/webhook, framework-agnostic: mounted by Next
// (app/api/provider/webhook/route.ts) and by the lean server (lib/http/mounts.ts).
// GET: the provider's subscription handshake. POST: the body read up to its limit (413),
// then accepted by the provider domain (signature 401, validation 400, stored 200:
// lib/domains/provider/callbacks/accept.ts); the callback processor (lib/ingest) does the
// slow work. docs/event-pipeline.md "Provider callbacks".
import { timingSafeEqual } from "node:crypto";
import { readAtMost, TooLargeError } from "@/lib/core/bounded-read";
import { env } from "@/lib/core/env";
import { errorAnswer } from "@/lib/core/error-answer";
import { acceptProviderCallback, answerStatus } from "@/lib/domains/provider/callbacks/accept";
import { SIGNATURE_HEADER } from "@/lib/domains/provider/callbacks/signature";

export const MAX_BODY_BYTES = 8 * 1024 * 1024;

const ANSWER_TEXT = { stored: "EVENT_RECEIVED", unsigned: "Invalid signature", malformed: "Malformed payload" };

const text = (status: number, body: string) =>
  new Response(body, { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The subscription handshake: ?hub.mode=subscribe&hub.challenge=X&hub.verify_token=T. */
function handshake(url: URL): Response {
  const mode = url.searchParams.get("hub.mode");
  const challenge = url.searchParams.get("hub.challenge");
  const token = url.searchParams.get("hub.verify_token") ?? "";
  if (mode === "subscribe" && challenge !== null && sameText(token, env().PROVIDER_VERIFY_TOKEN)) {
    return text(200, challenge);
  }
  return text(403, "Forbidden");
}

export async function handleProviderWebhook(request: Request): Promise<Response> {
  if (request.method === "GET" || request.method === "HEAD") return handshake(new URL(request.url));
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
  try {
    const outcome = await acceptProviderCallback(raw, request.headers.get(SIGNATURE_HEADER));
    return text(answerStatus[outcome], ANSWER_TEXT[outcome]);
  } catch (caught) {
    // Not stored (the database cannot be reached): the provider retries later, as Retry-After asks.
    const error = errorAnswer(caught);
    if (error.kind !== "SERVICE_UNAVAILABLE") throw caught;
    const answer = text(error.status, "Service Unavailable");
    for (const [name, value] of Object.entries(error.headers)) answer.headers.set(name, value);
    return answer;
  }
}
