// Recovery of failed deliveries (docs/webhook-recovery.md): the request body, its window
// rules and the public shape of a recovery job. One schema, used by the API route, the
// dashboard form's server action and the OpenAPI document.
import { z } from "zod";
import { PublicId } from "@/lib/core/path-params";
import { isoTimestamp } from "@/lib/core/timestamp-schema";

/** How far back a recovery may reach (deliveries are kept longer; the window is bounded). */
export const RECOVERY_MAX_DAYS = 30;
const DAY_MS = 24 * 3600_000;
/** Clock skew tolerated on `until` (a client's "now" slightly ahead of ours). */
const SKEW_MS = 60_000;

/** A path id: a value that is not an id we issue names no recovery job. */
export const RecoveryUid = PublicId.describe("The recovery job's uid");

export const RECOVERY_STATUSES = ["QUEUED", "RUNNING", "COMPLETED", "FAILED"] as const;

// Kept as text (the service makes the Date): the Idempotency-Key fingerprint of the
// parsed body must tell two windows apart, and a Date has no own keys.
const Instant = (name: string) =>
  z.iso.datetime({ offset: true, error: `${name} must be an ISO 8601 date-time, e.g. 2026-11-20T08:00:00Z` });

/**
 * `since` (required) and `until` (default: now), both ISO 8601: since <= until, since in
 * the past and at most RECOVERY_MAX_DAYS ago, until not in the future.
 */
export const RecoverBody = z
  .object({
    senderId: z.string({ error: "senderId must be a phone number string" }).optional(),
    since: Instant("since").describe(
      `Re-queue failed deliveries created at or after this instant (at most ${RECOVERY_MAX_DAYS} days ago)`,
    ),
    until: Instant("until")
      .optional()
      .describe("...and at or before this one (default: now; not in the future, not before since)"),
  })
  .superRefine((body, ctx) => {
    const since = Date.parse(body.since);
    const until = body.until === undefined ? undefined : Date.parse(body.until);
    // A malformed since or until is reported by its own check; the window needs both.
    if (Number.isNaN(since) || Number.isNaN(until)) return;
    const now = Date.now();
    if (since > now) ctx.addIssue({ code: "custom", path: ["since"], message: "since must be in the past" });
    else if (since < now - RECOVERY_MAX_DAYS * DAY_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["since"],
        message: `since must be within the last ${RECOVERY_MAX_DAYS} days`,
      });
    }
    if (until === undefined) return;
    if (until < since) ctx.addIssue({ code: "custom", path: ["until"], message: "until must not be before since" });
    else if (until > now + SKEW_MS) {
      ctx.addIssue({ code: "custom", path: ["until"], message: "until must not be in the future" });
    }
  });
export type RecoverBody = z.output<typeof RecoverBody>;

export const RecoveryPublic = z
  .object({
    recoveryUid: z.string().describe("The job's identifier: GET /webhooks/{webhookUid}/recoveries/{recoveryUid}"),
    uid: z.string().describe("Same value as recoveryUid"),
    webhookUid: z.string(),
    status: z
      .enum(RECOVERY_STATUSES)
      .describe("QUEUED (waiting for a worker), RUNNING, COMPLETED, or FAILED (see error)"),
    since: isoTimestamp().describe("Start of the window (delivery creation time, inclusive)"),
    until: isoTimestamp().describe("End of the window (inclusive)"),
    total: z
      .number()
      .int()
      .nullable()
      .describe("FAILED deliveries in the window when the job started (null while QUEUED)"),
    requeued: z.number().int().describe("Deliveries re-queued so far (each at most once)"),
    error: z.string().nullable().describe("Why the job stopped, when FAILED"),
    createdAt: isoTimestamp(),
    startedAt: isoTimestamp().nullable(),
    completedAt: isoTimestamp().nullable(),
  })
  .meta({ id: "WebhookRecovery" });
export type RecoveryPublic = z.infer<typeof RecoveryPublic>;
