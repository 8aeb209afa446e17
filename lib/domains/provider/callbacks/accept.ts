// Accepting a provider callback: the signature on the raw body, full validation, then the
// raw body stored durably (ProviderCallback) with a NOTIFY that wakes the callback processor
// of any process (lib/db/wakeups.ts); lib/ingest applies it later (docs/event-pipeline.md).
// No HTTP here: the endpoint (lib/http/provider-webhook.ts) reads the request and answers
// with answerStatus, and the simulator hands its signed bodies straight in.
import { hotRows } from "@/lib/db";
import { NOW_UTC, newId } from "@/lib/db/sql";
import { notifyExpression } from "@/lib/db/wakeups";
import { Prisma } from "@/lib/generated/prisma/client";
import { cleanCallbackBody } from "./clean";
import { parseProviderBody } from "./schemas";
import { verifyProviderSignature } from "./signature";

/** stored: durable, answered 200; unsigned: a missing or wrong signature; malformed: not the provider's envelope. */
export type CallbackOutcome = "stored" | "unsigned" | "malformed";

/** What the provider's endpoint answers for each outcome (the provider retries anything but a 2xx). */
export const answerStatus = { stored: 200, unsigned: 401, malformed: 400 } as const satisfies Record<
  CallbackOutcome,
  number
>;

/** Checks and stores one callback; nothing is stored unless it is signed and well formed. */
export async function acceptProviderCallback(raw: Buffer | string, signature: string | null): Promise<CallbackOutcome> {
  if (!verifyProviderSignature(raw, signature)) return "unsigned";
  // NUL and lone surrogates become U+FFFD: stored and applied, never failing (clean.ts).
  const body = cleanCallbackBody(typeof raw === "string" ? raw : raw.toString("utf8"));
  try {
    parseProviderBody(body);
  } catch {
    return "malformed";
  }
  // The provider's whole traffic lands here: plain pg, not the ORM (see hotRows).
  // One statement, so its NOTIFY commits with the row (lib/db/wakeups.ts).
  await hotRows(
    Prisma.sql`WITH stored AS (INSERT INTO "ProviderCallback" ("id", "body", "receivedAt") VALUES (${newId("cb")}, ${body}, ${Prisma.raw(NOW_UTC)}) RETURNING 1)
      SELECT ${Prisma.raw(notifyExpression("callbacks"))} FROM stored`,
  );
  return "stored";
}
