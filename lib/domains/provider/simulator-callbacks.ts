// The simulator's side of status callbacks: builds the provider's webhook envelope, signs it
// with the app secret (X-Hub-Signature-256) and posts it to our own /api/provider/webhook
// over HTTP when SIMULATOR_CALLBACK_URL is set, else hands it to the same acceptance the
// endpoint runs (callbacks/accept.ts: signature, validation, storage) in this process.
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { acceptProviderCallback, answerStatus } from "./callbacks/accept";
import { SIGNATURE_HEADER, signProviderBody } from "./callbacks/signature";

export type CallbackChange = { entryId: string; field: string; value: Record<string, unknown> };

const MAX_ATTEMPTS = 6;

export function envelopeFor(changes: CallbackChange[]): string {
  const byEntry = new Map<string, { field: string; value: Record<string, unknown> }[]>();
  for (const c of changes) {
    const list = byEntry.get(c.entryId) ?? [];
    list.push({ field: c.field, value: c.value });
    byEntry.set(c.entryId, list);
  }
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [...byEntry].map(([id, list]) => ({ id, changes: list })),
  });
}

function targetUrl(): string | undefined {
  const configured = env().SIMULATOR_CALLBACK_URL;
  if (!configured) return undefined;
  return configured.endsWith("/api/provider/webhook")
    ? configured
    : `${configured.replace(/\/$/, "")}/api/provider/webhook`;
}

/** Posts one signed body once; returns the endpoint's HTTP status (in process: the status it would answer). */
export async function postCallback(body: string): Promise<number> {
  const signature = signProviderBody(body);
  const url = targetUrl();
  if (!url) return answerStatus[await acceptProviderCallback(body, signature)];
  const headers = { "Content-Type": "application/json", [SIGNATURE_HEADER]: signature };
  const response = await fetch(url, { method: "POST", headers, body, signal: AbortSignal.timeout(10_000) });
  await response.arrayBuffer();
  return response.status;
}

/** Posts one signed batch; like the provider, retries failures with exponential backoff. */
export async function deliverCallback(body: string, attempt = 1): Promise<void> {
  let status = 0;
  try {
    status = await postCallback(body);
  } catch (error) {
    log.debug({ err: error }, "simulator callback post failed");
  }
  if (status >= 200 && status < 300) return;
  if (attempt >= MAX_ATTEMPTS) {
    log.warn({ status, attempt }, "simulator gave up on a status callback");
    return;
  }
  const delay = Math.min(30_000, 200 * 2 ** attempt) * (0.5 + Math.random() / 2);
  setTimeout(() => void deliverCallback(body, attempt + 1), delay).unref();
}
