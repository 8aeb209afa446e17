// Labels for rules (docs/automation.md): the conditions' reads, the label/unlabel actions
// through the labels service, and the conversation.labels_changed trigger. A change of a
// conversation's labels, by a person or a rule, writes one event job for the account's
// labels_changed rules in the change's transaction. The job of a rule's own change carries
// depth 1: the rules it runs change labels without writing another job (one level, no loops).
import { ApiError } from "@/lib/core/errors";
import type { Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import type { Principal } from "@/lib/domains/auth/principal";
import {
  changeConversationLabels,
  changeConversationLabelsIn,
  contactLabels,
  conversationLabels,
  type LabelsChanged,
} from "@/lib/domains/labels/apply";
import type { LabelChangeValue } from "@/lib/domains/labels/schemas";
import { scheduleJobs } from "@/lib/domains/schedule/jobs";
import { Prisma } from "@/lib/generated/prisma/client";
import { actorName, JOB_KINDS, type LabelApplier, type RunConversation } from "./actions";
import type { EventPayload } from "./payloads";

const TRIGGER = "conversation.labels_changed";

export async function labelsOf(tx: Tx, c: RunConversation): Promise<{ contact: string[]; conversation: string[] }> {
  const [contact, conversation] = [
    await contactLabels(tx, c.customerId, c.contactPhoneNumber),
    await conversationLabels(tx, c.customerId, c.id),
  ];
  return { contact, conversation };
}

/**
 * Writes the labels_changed event job of one change in `tx`, when the account has an enabled
 * labels_changed rule for the conversation's sender (one indexed read); `depth` 1 for a
 * rule's own change.
 */
export async function enqueueLabelsChanged(
  tx: Tx,
  c: { id: string; customerId: string; senderId: string },
  depth: 0 | 1,
  at = new Date(),
): Promise<void> {
  const [watched] = await tx.$queryRaw<{ one: number }[]>(Prisma.sql`SELECT 1 AS one FROM "AutomationRule"
    WHERE "customerId" = ${c.customerId} AND enabled AND "triggerEvent" = ${TRIGGER}
      AND (cardinality("senderIds") = 0 OR ${c.senderId} = ANY("senderIds")) LIMIT 1`);
  if (!watched) return;
  const eventKey = newId("lc_");
  await scheduleJobs(tx, [
    {
      customerId: c.customerId,
      kind: JOB_KINDS.event,
      key: `auto:${TRIGGER}:${eventKey}`,
      subjectId: c.id,
      dueAt: at,
      payload: {
        trigger: TRIGGER,
        conversationId: c.id,
        eventKey,
        message: null,
        at: at.toISOString(),
        depth,
      } satisfies EventPayload,
    },
  ]);
}

/**
 * A label or unlabel action: the conversation's labels change as the rule's (by "automation:
 * <name>"). A name that is no label of the account now (deleted or renamed since the rule was
 * saved, which checked it) fails the action, changing nothing, with the reason
 * `label_not_found: <names>`; the rule's other actions still run (docs/automation.md "A label
 * that no longer exists").
 */
export const applyLabels: LabelApplier = async (ctx, action) => {
  const change = action.type === "label" ? { add: action.labels, remove: [] } : { add: [], remove: action.labels };
  let result: Awaited<ReturnType<typeof changeConversationLabelsIn>>;
  try {
    result = await changeConversationLabelsIn(ctx.tx, ctx.conversation, change, actorName(ctx.rule.name));
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== "LABEL_NOT_FOUND") throw error;
    const names = (error.details.names as string[] | undefined) ?? action.labels;
    return { type: action.type, outcome: "failed", reason: `label_not_found: ${names.join(", ")}` };
  }
  const changed = action.type === "label" ? result.added : result.removed;
  if (!result.emitted) {
    return { type: action.type, outcome: "skipped", reason: action.type === "label" ? "already there" : "not there" };
  }
  ctx.signal = true;
  // A rule's own change triggers labels_changed rules once; theirs trigger nothing more.
  if (ctx.depth === 0) await enqueueLabelsChanged(ctx.tx, ctx.conversation, 1, ctx.now);
  return { type: action.type, outcome: "done", reason: changed.join(", ") };
};

/**
 * A person's (or a token's) change of a conversation's labels (the API and the inbox): the
 * labels service's, with the labels_changed rules' job written in its transaction.
 */
export const changeConversationLabelsWithRules = (
  p: Principal,
  senderId: string | undefined,
  uid: string,
  change: Pick<LabelChangeValue, "add" | "remove">,
): Promise<LabelsChanged & { conversationUid: string }> =>
  changeConversationLabels(p, senderId, uid, change, (tx, c) => enqueueLabelsChanged(tx, c, 0));
