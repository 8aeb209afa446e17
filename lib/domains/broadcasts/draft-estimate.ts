// The new-broadcast page's live count (docs/broadcasts.md "For the dashboard"): for an audience,
// mapping and pace not yet saved, the recipients, those skipped by reason, the estimate against
// the balance, the messaging limit left and a few recipients' resolved values. It counts with
// audienceQuery through audience-count.ts, the statements a start runs, and sends or stores
// nothing.
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { ledgerBalance } from "@/lib/domains/billing/ledger";
import { senderLimits as limitsWithUse } from "@/lib/domains/senders/limits";
import type { FilledValues } from "@/lib/domains/templates/fill";
import type { Sender } from "@/lib/generated/prisma/client";
import { audienceSamples, estimateOf, tally } from "./audience-count";
import { filledValues } from "./recipient-message";
import type { BroadcastDraft, EstimatePublic } from "./schemas";
import { audienceRulesOf } from "./segments";
import { assertBooks, assertMapping, broadcastScope, templateOf } from "./service";

/** How many recipients the page shows the rendered message for. */
const SAMPLES = 3;

export type DraftEstimate = {
  estimate: EstimatePublic;
  skippedByReason: { blacklisted: number; invalid_number: number; missing_variable: number; duplicates: number };
  /** The template's values for the first recipients (the page renders them with the template). */
  samples: { phoneNumber: string; values: FilledValues }[];
  balance: number;
  /** The balance does not cover the estimate: a start would be refused with INSUFFICIENT_BALANCE. */
  insufficient: boolean;
  /** The sender's business account's tier and what is left of it in the rolling 24 hours (null: unlimited). */
  messagingLimit: { tier: number; remaining: number } | null;
};

export async function estimateDraft(p: Principal, sender: Sender, draft: BroadcastDraft): Promise<DraftEstimate> {
  const scope = broadcastScope(p, sender);
  const template = await templateOf(p.customerId, draft.template.name, draft.template.language);
  assertMapping(template, draft.variables);
  await assertBooks(p, draft.audience);
  const input = {
    customerId: scope.customerId,
    senderId: sender.id,
    audience: await audienceRulesOf(db, scope.customerId, draft.audience),
    variables: draft.variables,
  };
  const [t, samples, balance, limit] = await Promise.all([
    tally(db, input),
    audienceSamples(db, input, SAMPLES),
    ledgerBalance(p.customerId),
    messagingLimitLeft(sender),
  ]);
  const estimate = await estimateOf(
    db,
    { customerId: scope.customerId, maxPerSecond: draft.maxPerSecond ?? null },
    sender,
    template,
    t,
  );
  return {
    estimate,
    skippedByReason: {
      blacklisted: t.blacklisted,
      invalid_number: t.invalid_number,
      missing_variable: t.missing_variable,
      duplicates: t.duplicates,
    },
    samples: samples.map((s) => ({ phoneNumber: s.phone, values: filledValues(s.parameters) })),
    balance: balance.toNumber(),
    insufficient: balance.lt(estimate.cost),
    messagingLimit: limit,
  };
}

async function messagingLimitLeft(sender: Sender): Promise<DraftEstimate["messagingLimit"]> {
  const { messagingLimit } = await limitsWithUse(sender);
  if (messagingLimit.tier === null || messagingLimit.tier < 0) return null;
  return {
    tier: messagingLimit.tier,
    remaining: Math.max(0, messagingLimit.tier - messagingLimit.usedLast24h),
  };
}
