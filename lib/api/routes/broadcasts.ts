// Broadcasts (docs/broadcasts.md): create, list, read, update, preview, start or schedule,
// pause, resume, cancel, retry failed and the recipients list. Sender-scoped as chatbots: senderId (query
// on GET, body on POST) or a number-scoped token; a global token without senderId reaches
// all the account's senders (create: the default sender).
import { countOf } from "@/lib/core/count";
import { pageOf } from "@/lib/core/pagination";
import * as examples from "@/lib/domains/broadcasts/examples";
import { extrasOf } from "@/lib/domains/broadcasts/extras";
import { retryFailedRecipients } from "@/lib/domains/broadcasts/retry-failed";
import {
  BroadcastCreateBody,
  BroadcastListPublic,
  BroadcastListQuery,
  BroadcastPublic,
  type BroadcastPublic as BroadcastPublicData,
  BroadcastRetryPublic,
  BroadcastSenderBody,
  BroadcastSenderQuery,
  BroadcastStartBody,
  BroadcastUid,
  BroadcastUpdateBody,
  PreviewPublic,
  RecipientListPublic,
  RecipientListQuery,
} from "@/lib/domains/broadcasts/schemas";
import type { BroadcastRow } from "@/lib/domains/broadcasts/serializers";
import { toPublicBroadcast, toPublicRecipient } from "@/lib/domains/broadcasts/serializers";
import {
  cancelBroadcast,
  createBroadcast,
  getBroadcast,
  listBroadcasts,
  listRecipients,
  pauseBroadcast,
  previewBroadcast,
  resumeBroadcast,
  startBroadcast,
  updateBroadcast,
} from "@/lib/domains/broadcasts/service";
import { MEDIA_SEND_ERRORS } from "@/lib/domains/messaging/errors";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  tag: "Broadcasts",
  sender: "resolve",
  params: { broadcastUid: BroadcastUid },
  paramNotFound: { broadcastUid: "BROADCAST_NOT_FOUND" },
} as const;
// Reads and changes by uid, and the list, reach every sender of the account without senderId.
const anySender = { ...common, senderOptions: { useDefault: false, requireSetup: false } } as const;

async function withExtras(customerId: string, row: BroadcastRow) {
  return toPublicBroadcast(row, (await extrasOf(customerId, [row])).get(row.id));
}

/** A state change by uid: pause, resume, cancel (idempotent). */
const change = (
  action: "pause" | "resume" | "cancel",
  run: typeof pauseBroadcast,
  message: string,
  summary: string,
  description: string,
  example: { params: { broadcastUid: string }; request: object; message: string; response: BroadcastPublicData },
) =>
  route({
    ...anySender,
    method: "POST",
    path: `/broadcasts/:broadcastUid/${action}`,
    permission: "broadcasts",
    example,
    summary,
    description,
    body: BroadcastSenderBody,
    response: BroadcastPublic,
    errors: ["BROADCAST_NOT_FOUND", "BROADCAST_STATE_CONFLICT"],
    handler: async ({ principal, sender, params }) =>
      ok(message, await withExtras(principal.customerId, await run(principal, sender, params.broadcastUid))),
  });

export const broadcastRoutes: AnyRoute[] = [
  route({
    ...anySender,
    method: "GET",
    path: "/broadcasts",
    permission: "broadcasts",
    example: examples.getBroadcasts,
    summary: "List broadcasts",
    description: "Newest first; filter by senderId and status.",
    query: BroadcastListQuery,
    response: BroadcastListPublic,
    handler: async ({ principal, sender, query }) => {
      const { broadcasts, total } = await listBroadcasts(principal, sender, query);
      const extras = await extrasOf(principal.customerId, broadcasts);
      return ok(
        "Broadcasts retrieved",
        pageOf(
          "broadcasts",
          broadcasts.map((b) => toPublicBroadcast(b, extras.get(b.id))),
          query,
          total,
        ),
      );
    },
  }),
  route({
    ...common,
    senderOptions: { requireSetup: false },
    method: "POST",
    path: "/broadcasts",
    permission: "broadcasts",
    example: examples.postBroadcasts,
    idempotent: "broadcast.create",
    summary: "Create a broadcast",
    description: "Created as DRAFT: one approved template to an audience.",
    body: BroadcastCreateBody,
    response: BroadcastPublic,
    successStatus: 201,
    errors: ["TEMPLATE_NOT_FOUND", ...MEDIA_SEND_ERRORS],
    handler: async ({ principal, sender, body }) => {
      const row = await createBroadcast(principal, sender, body.broadcast);
      return { status: 201, ...ok("Broadcast created", await withExtras(principal.customerId, row)) };
    },
  }),
  route({
    ...anySender,
    method: "GET",
    path: "/broadcasts/:broadcastUid",
    permission: "broadcasts",
    example: examples.getBroadcastsByBroadcastUid,
    summary: "Read a broadcast",
    description: "The broadcast with its live counts.",
    query: BroadcastSenderQuery,
    response: BroadcastPublic,
    errors: ["BROADCAST_NOT_FOUND"],
    handler: async ({ principal, sender, params }) =>
      ok(
        "Broadcast retrieved",
        await withExtras(principal.customerId, await getBroadcast(principal, sender, params.broadcastUid)),
      ),
  }),
  route({
    ...anySender,
    method: "POST",
    path: "/broadcasts/:broadcastUid",
    permission: "broadcasts",
    example: examples.postBroadcastsByBroadcastUid,
    summary: "Update a broadcast",
    description: "While DRAFT or SCHEDULED; at least one field.",
    body: BroadcastUpdateBody,
    response: BroadcastPublic,
    errors: ["BROADCAST_NOT_FOUND", "BROADCAST_STATE_CONFLICT", "TEMPLATE_NOT_FOUND", ...MEDIA_SEND_ERRORS],
    handler: async ({ principal, sender, params, body }) =>
      ok(
        "Broadcast updated",
        await withExtras(
          principal.customerId,
          await updateBroadcast(principal, sender, params.broadcastUid, body.broadcast),
        ),
      ),
  }),
  route({
    ...anySender,
    method: "POST",
    path: "/broadcasts/:broadcastUid/preview",
    permission: "broadcasts",
    example: examples.postBroadcastsByBroadcastUidPreview,
    summary: "Preview a broadcast",
    description: "The estimate, skipped recipients by reason and up to 5 rendered messages; sends nothing.",
    body: BroadcastSenderBody,
    response: PreviewPublic,
    errors: ["BROADCAST_NOT_FOUND", "TEMPLATE_NOT_FOUND"],
    handler: async ({ principal, sender, params }) =>
      ok("Broadcast preview", await previewBroadcast(principal, sender, params.broadcastUid)),
  }),
  route({
    ...anySender,
    method: "POST",
    path: "/broadcasts/:broadcastUid/start",
    permission: "broadcasts",
    example: examples.postBroadcastsByBroadcastUidStart,
    summary: "Start or schedule a broadcast",
    description: "Starts now, or at scheduledAt; the balance must cover the estimate.",
    body: BroadcastStartBody,
    response: BroadcastPublic,
    errors: [
      "BROADCAST_NOT_FOUND",
      "BROADCAST_STATE_CONFLICT",
      "INSUFFICIENT_BALANCE",
      "TEMPLATE_NOT_FOUND",
      "TEMPLATE_NOT_APPROVED",
      ...MEDIA_SEND_ERRORS,
    ],
    handler: async ({ principal, sender, params, body }) =>
      ok(
        "Broadcast started",
        await withExtras(
          principal.customerId,
          await startBroadcast(principal, sender, params.broadcastUid, body.scheduledAt),
        ),
      ),
  }),
  change(
    "pause",
    pauseBroadcast,
    "Broadcast paused",
    "Pause a broadcast",
    "Pauses a sending broadcast; pausing one already paused succeeds (idempotent).",
    examples.postBroadcastsByBroadcastUidPause,
  ),
  change(
    "resume",
    resumeBroadcast,
    "Broadcast resumed",
    "Resume a broadcast",
    "Resumes a paused broadcast; resuming one already sending succeeds (idempotent).",
    examples.postBroadcastsByBroadcastUidResume,
  ),
  change(
    "cancel",
    cancelBroadcast,
    "Broadcast cancelled",
    "Cancel a broadcast",
    "Its queued recipients are skipped; cancelling one already cancelled succeeds (idempotent).",
    examples.postBroadcastsByBroadcastUidCancel,
  ),
  route({
    ...anySender,
    method: "POST",
    path: "/broadcasts/:broadcastUid/retry-failed",
    permission: "broadcasts",
    example: examples.postBroadcastsByBroadcastUidRetryFailed,
    summary: "Retry a broadcast's failed recipients",
    description:
      "Queues again the recipients that failed with a code a later attempt can get past (throughput, pair rate, messaging limit, the provider's transient errors); 131049 no earlier than 24 hours after the failure; never template, parameter or number errors, nor interrupted recipients. A COMPLETED broadcast is SENDING again (and emits broadcast.completed again when it ends). The balance must cover the retried recipients.",
    body: BroadcastSenderBody,
    response: BroadcastRetryPublic,
    errors: [
      "BROADCAST_NOT_FOUND",
      "BROADCAST_STATE_CONFLICT",
      "INSUFFICIENT_BALANCE",
      "TEMPLATE_NOT_FOUND",
      "TEMPLATE_NOT_APPROVED",
    ],
    handler: async ({ principal, sender, params }) => {
      const r = await retryFailedRecipients(principal, sender, params.broadcastUid);
      const message =
        r.requeued === 0
          ? "No failed recipient can be retried now"
          : `${countOf(r.requeued, "failed recipient")} queued again`;
      return ok(message, {
        ...(await withExtras(principal.customerId, r.broadcast)),
        retry: { requeued: r.requeued, waiting: r.waiting, retryableAt: r.retryableAt?.toISOString() ?? null },
      });
    },
  }),
  route({
    ...anySender,
    method: "GET",
    path: "/broadcasts/:broadcastUid/recipients",
    permission: "broadcasts",
    example: examples.getBroadcastsByBroadcastUidRecipients,
    summary: "List a broadcast's recipients",
    description: "Filter by status and search text.",
    query: RecipientListQuery,
    response: RecipientListPublic,
    errors: ["BROADCAST_NOT_FOUND"],
    handler: async ({ principal, sender, params, query }) => {
      const { recipients, total } = await listRecipients(principal, sender, params.broadcastUid, query);
      return ok(
        "Broadcast recipients retrieved",
        pageOf("recipients", recipients.map(toPublicRecipient), query, total),
      );
    },
  }),
];
