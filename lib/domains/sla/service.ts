// SLA policies: list, create, read, update, delete (docs/reports.md "SLA policies"). Every read
// and write carries the customer in its WHERE: another account's uid is SLA_POLICY_NOT_FOUND.
// Members need the automations permission (checked here, whatever the adapter); API tokens are
// checked by the router. The account's order is `position` (0, 1, ...): a change locks the
// account's row so two concurrent creates or moves never share a place. Every change is
// audited in its transaction. A new policy, a deleted one, and a change of a policy's targets,
// business hours, `applies` or place reach the open conversations through one durable job
// written in its transaction (lib/domains/sla/policy-change.ts; docs/reports.md "When a policy
// changes").
import { ApiError } from "@/lib/core/errors";
import { labelKey } from "@/lib/core/label-key";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import type { Prisma, SlaPolicy } from "@/lib/generated/prisma/client";
import { hasUnheldOpen, schedulePolicyChange } from "./policy-change";
import { MAX_POLICIES, type SlaPolicyCreateInput, type SlaPolicyPatch } from "./schemas";
import { dropPolicy } from "./timers";

export const policyNotFound = (uid: string) =>
  new ApiError("SLA_POLICY_NOT_FOUND", `SLA policy ${uid} not found for this account`);

function guard(p: Principal): void {
  if (p.member) assertPermission(p, "automations");
  if (p.scopedSenderId) throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "SLA policies need a global token");
}

const refused = (path: string, message: string) =>
  new ApiError("VALIDATION_FAILED", message, { fields: [{ path, message }] });

/** The senders' ids for their phone numbers (this account's only); a number it has not is named. */
async function senderIdsOf(tx: Tx, customerId: string, phones: readonly string[]): Promise<string[]> {
  if (phones.length === 0) return [];
  const digits = (v: string) => v.replace(/\D/g, "");
  const senders = await tx.sender.findMany({ where: { customerId }, select: { id: true, phoneNumber: true } });
  return phones.map((phone, i) => {
    const found = senders.find((s) => digits(s.phoneNumber) === digits(phone));
    if (!found) throw refused(`body.policy.applies.senderIds.${i}`, `${phone} is not a sender of this account`);
    return found.id;
  });
}

/** Serializes the account's policy changes (their positions) until the transaction ends. */
async function lockAccount(tx: Tx, customerId: string): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Customer" WHERE id = ${customerId} FOR UPDATE`;
}

/** The account's policies in its order. */
export async function policiesOf(customerId: string, tx: Tx = db): Promise<SlaPolicy[]> {
  return tx.slaPolicy.findMany({ where: { customerId }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] });
}

export async function listPolicies(p: Principal): Promise<SlaPolicy[]> {
  guard(p);
  return policiesOf(p.customerId);
}

export async function getPolicy(p: Principal, uid: string, tx: Tx = db): Promise<SlaPolicy> {
  guard(p);
  const policy = await tx.slaPolicy.findFirst({ where: { id: uid, customerId: p.customerId } });
  if (!policy) throw policyNotFound(uid);
  return policy;
}

const uniqueLabels = (labels: readonly string[]) => [
  ...new Map(labels.map((l) => [l.toLowerCase(), l] as const)).values(),
];

/**
 * Every label the policy applies by is one of the account's (matched whatever the case), as a
 * rule's and a segment's are: a misspelt name would make a policy that never applies. A label
 * deleted later leaves the policy applying to nothing by it (docs/reports.md "SLA policies").
 */
async function checkLabels(tx: Tx, customerId: string, labels: readonly string[]): Promise<void> {
  if (labels.length === 0) return;
  const found = await tx.label.findMany({
    where: { customerId, nameKey: { in: labels.map(labelKey) } },
    select: { nameKey: true },
  });
  const known = new Set(found.map((l) => l.nameKey));
  const fields = labels.flatMap((name, i) =>
    known.has(labelKey(name))
      ? []
      : [{ path: `body.policy.applies.labels.${i}`, message: `no label named "${name}" in this account` }],
  );
  const [first] = fields;
  if (first) throw new ApiError("VALIDATION_FAILED", first.message, { fields });
}

/** A policy's name is the account's only one of that name (whatever the case): the list and the inbox name policies by it. */
async function checkName(tx: Tx, customerId: string, name: string, except?: string): Promise<void> {
  const taken = await tx.slaPolicy.findMany({
    where: { customerId, ...(except ? { NOT: { id: except } } : {}) },
    select: { name: true },
  });
  const key = labelKey(name);
  if (taken.some((x) => labelKey(x.name) === key)) {
    throw refused("body.policy.name", `an SLA policy named "${name}" already exists`);
  }
}

export async function createPolicy(p: Principal, input: SlaPolicyCreateInput): Promise<SlaPolicy> {
  guard(p);
  return db.$transaction(async (tx) => {
    await lockAccount(tx, p.customerId);
    const count = await tx.slaPolicy.count({ where: { customerId: p.customerId } });
    if (count >= MAX_POLICIES) throw refused("body.policy", `an account may have at most ${MAX_POLICIES} SLA policies`);
    await checkName(tx, p.customerId, input.name);
    await checkLabels(tx, p.customerId, input.applies.labels);
    const policy = await tx.slaPolicy.create({
      data: {
        id: newId("sla_"),
        customerId: p.customerId,
        name: input.name,
        position: count,
        firstResponseMinutes: input.firstResponseMinutes,
        nextResponseMinutes: input.nextResponseMinutes,
        resolutionMinutes: input.resolutionMinutes,
        businessHoursOnly: input.businessHoursOnly,
        senderIds: await senderIdsOf(tx, p.customerId, input.applies.senderIds),
        labels: uniqueLabels(input.applies.labels),
      },
    });
    // It goes last: it can apply only to the open conversations no other policy applies to,
    // which the walk chooses for again, due from their own waits' starts.
    if (await hasUnheldOpen(tx, p.customerId)) {
      await schedulePolicyChange(tx, {
        customerId: p.customerId,
        policyId: policy.id,
        before: null,
        choose: true,
        unheld: true,
        at: new Date(),
      });
    }
    await recordAudit(tx, {
      ...auditContext(p),
      action: "sla_policy.created",
      target: { type: "sla_policy", uid: policy.id },
      details: { name: policy.name },
    });
    return policy;
  });
}

/** Moves one policy to `position` (clamped to the list) and numbers the others around it. */
async function reorder(tx: Tx, customerId: string, uid: string, position: number): Promise<void> {
  const ids = (await policiesOf(customerId, tx)).map((x) => x.id).filter((id) => id !== uid);
  ids.splice(Math.min(position, ids.length), 0, uid);
  for (const [i, id] of ids.entries()) {
    await tx.slaPolicy.updateMany({ where: { id, customerId, NOT: { position: i } }, data: { position: i } });
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x)) && b.every((x) => a.includes(x));

export async function updatePolicy(p: Principal, uid: string, patch: SlaPolicyPatch): Promise<SlaPolicy> {
  guard(p);
  return db.$transaction(async (tx) => {
    await lockAccount(tx, p.customerId);
    const current = await getPolicy(p, uid, tx);
    const merged = {
      firstResponseMinutes:
        patch.firstResponseMinutes !== undefined ? patch.firstResponseMinutes : current.firstResponseMinutes,
      nextResponseMinutes:
        patch.nextResponseMinutes !== undefined ? patch.nextResponseMinutes : current.nextResponseMinutes,
      resolutionMinutes: patch.resolutionMinutes !== undefined ? patch.resolutionMinutes : current.resolutionMinutes,
    };
    if (
      merged.firstResponseMinutes === null &&
      merged.nextResponseMinutes === null &&
      merged.resolutionMinutes === null
    ) {
      throw refused(
        "body.policy.firstResponseMinutes",
        "a policy needs at least one of firstResponseMinutes, nextResponseMinutes, resolutionMinutes",
      );
    }
    const data: Prisma.SlaPolicyUpdateManyMutationInput = { ...merged };
    if (patch.name !== undefined) {
      await checkName(tx, p.customerId, patch.name, uid);
      data.name = patch.name;
    }
    if (patch.businessHoursOnly !== undefined) data.businessHoursOnly = patch.businessHoursOnly;
    if (patch.applies !== undefined) {
      await checkLabels(tx, p.customerId, patch.applies.labels);
      data.senderIds = await senderIdsOf(tx, p.customerId, patch.applies.senderIds);
      data.labels = uniqueLabels(patch.applies.labels);
    }
    const at = new Date();
    const termsChanged =
      merged.firstResponseMinutes !== current.firstResponseMinutes ||
      merged.nextResponseMinutes !== current.nextResponseMinutes ||
      merged.resolutionMinutes !== current.resolutionMinutes ||
      (data.businessHoursOnly ?? current.businessHoursOnly) !== current.businessHoursOnly;
    // Replies and closes before this moment are not judged by the new terms (missedTargets).
    if (termsChanged) data.termsChangedAt = at;
    await tx.slaPolicy.updateMany({ where: { id: uid, customerId: p.customerId }, data });
    if (patch.position !== undefined) await reorder(tx, p.customerId, uid, patch.position);
    const updated = await getPolicy(p, uid, tx);
    // A policy applying elsewhere (senders, labels) or moving in the order may change which
    // policy any open conversation of the account gets: all of them are chosen again.
    const choose =
      updated.position !== current.position ||
      !sameSet(updated.senderIds, current.senderIds) ||
      !sameSet(
        updated.labels.map((l) => l.toLowerCase()),
        current.labels.map((l) => l.toLowerCase()),
      );
    if (termsChanged || choose) {
      await schedulePolicyChange(tx, { customerId: p.customerId, policyId: uid, before: current, choose, at });
    }
    await recordAudit(tx, {
      ...auditContext(p),
      action: "sla_policy.updated",
      target: { type: "sla_policy", uid },
      details: { fields: Object.keys(patch).sort() },
    });
    return updated;
  });
}

export async function deletePolicy(p: Principal, uid: string): Promise<void> {
  guard(p);
  await db.$transaction(async (tx) => {
    await lockAccount(tx, p.customerId);
    const policy = await getPolicy(p, uid, tx);
    // Before the policy goes: the job records the misses its terms held at the delete for the
    // conversations whose SLA timer was due and had not run (dropPolicy deletes those timers),
    // and its walk gives the open conversations the next policy that applies, if any.
    await schedulePolicyChange(tx, {
      customerId: p.customerId,
      policyId: uid,
      before: policy,
      choose: true,
      unheld: true,
      at: new Date(),
    });
    await tx.slaPolicy.deleteMany({ where: { id: uid, customerId: p.customerId } });
    await dropPolicy(tx, p.customerId, uid);
    await tx.slaPolicy.updateMany({
      where: { customerId: p.customerId, position: { gt: policy.position } },
      data: { position: { decrement: 1 } },
    });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "sla_policy.deleted",
      target: { type: "sla_policy", uid },
      details: { name: policy.name },
    });
  });
}
