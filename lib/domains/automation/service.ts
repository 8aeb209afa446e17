// Automation rules: list, create, read, update, delete and the runs log (docs/automation.md).
// Every read and write carries the customer in its WHERE: another account's uid is
// AUTOMATION_NOT_FOUND. Members need the automations permission (checked here, whatever the
// adapter); API tokens are checked by the router. Every change is audited in its transaction.
import { ApiError } from "@/lib/core/errors";
import { labelKey } from "@/lib/core/label-key";
import { type PageInput, skipTake } from "@/lib/core/pagination";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import type { AutomationRule, AutomationRun, Prisma } from "@/lib/generated/prisma/client";
import type { Action, Condition, RuleCreateInput, RulePatch } from "./schemas";

export const ruleNotFound = (uid: string) =>
  new ApiError("AUTOMATION_NOT_FOUND", `Automation rule ${uid} not found for this account`);

function guard(p: Principal): void {
  if (p.member) assertPermission(p, "automations");
  if (p.scopedSenderId) throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "Automation rules need a global token");
}

/** The senders' ids for their phone numbers (this account's only); a number it has not is named. */
async function senderIdsOf(tx: Tx, customerId: string, phones: readonly string[]): Promise<string[]> {
  if (phones.length === 0) return [];
  const digits = (v: string) => v.replace(/\D/g, "");
  const senders = await tx.sender.findMany({ where: { customerId }, select: { id: true, phoneNumber: true } });
  return phones.map((phone, i) => {
    const found = senders.find((s) => digits(s.phoneNumber) === digits(phone));
    if (!found) {
      const message = `${phone} is not a sender of this account`;
      throw new ApiError("VALIDATION_FAILED", message, { fields: [{ path: `body.rule.senderIds.${i}`, message }] });
    }
    return found.id;
  });
}

/** Sender id -> phone number, for the public shape of rules. */
export async function senderPhones(customerId: string): Promise<Map<string, string>> {
  const senders = await db.sender.findMany({ where: { customerId }, select: { id: true, phoneNumber: true } });
  return new Map(senders.map((s) => [s.id, s.phoneNumber]));
}

/** Every label a rule names, with the field that names it (label/unlabel actions, label conditions). */
function labelsNamedBy(rule: {
  conditions?: readonly Condition[];
  actions?: readonly Action[];
}): { path: string; name: string }[] {
  const named: { path: string; name: string }[] = [];
  for (const [i, c] of (rule.conditions ?? []).entries()) {
    if ((c.field === "contact.label" || c.field === "conversation.label") && typeof c.value === "string") {
      named.push({ path: `conditions.${i}.value`, name: c.value });
    }
  }
  for (const [i, a] of (rule.actions ?? []).entries()) {
    if (a.type === "label" || a.type === "unlabel") {
      for (const [j, name] of a.labels.entries()) named.push({ path: `actions.${i}.labels.${j}`, name });
    }
  }
  return named;
}

/**
 * Every label the rule names is one of the account's (matched whatever the case, one read);
 * each that is not is VALIDATION_FAILED naming its field (`body.rule.actions.1.labels.0`).
 * A label deleted or renamed later is the run's concern (docs/automation.md "A label that
 * no longer exists").
 */
async function checkLabels(tx: Tx, customerId: string, rule: Parameters<typeof labelsNamedBy>[0]): Promise<void> {
  const named = labelsNamedBy(rule);
  if (named.length === 0) return;
  const keys = [...new Set(named.map((n) => labelKey(n.name)))];
  const found = await tx.label.findMany({ where: { customerId, nameKey: { in: keys } }, select: { nameKey: true } });
  const known = new Set(found.map((l) => l.nameKey));
  const fields = named
    .filter((n) => !known.has(labelKey(n.name)))
    .map((n) => ({ path: `body.rule.${n.path}`, message: `no label named "${n.name}" in this account` }));
  const [first] = fields;
  if (first) throw new ApiError("VALIDATION_FAILED", `${first.path}: ${first.message}`, { fields });
}

const json = (v: unknown) => v as Prisma.InputJsonValue;
/** Rules the API and the dashboard manage (the built-in away reply is the business hours setting's). */
const USER_RULES = { builtIn: null } as const;

export async function createRule(p: Principal, input: RuleCreateInput): Promise<AutomationRule> {
  guard(p);
  return db.$transaction(async (tx) => {
    const senderIds = await senderIdsOf(tx, p.customerId, input.senderIds);
    await checkLabels(tx, p.customerId, input);
    const rule = await tx.automationRule.create({
      data: {
        id: newId("rule_"),
        customerId: p.customerId,
        name: input.name,
        enabled: input.enabled,
        triggerEvent: input.trigger.event,
        trigger: json(input.trigger),
        conditions: json(input.conditions),
        actions: json(input.actions),
        senderIds,
      },
    });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "automation.created",
      target: { type: "automation", uid: rule.id },
      details: { name: rule.name, trigger: input.trigger.event, enabled: rule.enabled },
    });
    return rule;
  });
}

export async function listRules(p: Principal, page: PageInput): Promise<{ rules: AutomationRule[]; total: number }> {
  guard(p);
  const where = { customerId: p.customerId, ...USER_RULES };
  const [rules, total] = await Promise.all([
    db.automationRule.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...skipTake(page) }),
    db.automationRule.count({ where }),
  ]);
  return { rules, total };
}

export async function getRule(p: Principal, uid: string, tx: Tx = db): Promise<AutomationRule> {
  guard(p);
  const rule = await tx.automationRule.findFirst({ where: { id: uid, customerId: p.customerId, ...USER_RULES } });
  if (!rule) throw ruleNotFound(uid);
  return rule;
}

export async function updateRule(p: Principal, uid: string, patch: RulePatch): Promise<AutomationRule> {
  guard(p);
  return db.$transaction(async (tx) => {
    const data: Prisma.AutomationRuleUpdateManyMutationInput = {};
    if (patch.name !== undefined) data.name = patch.name;
    if (patch.enabled !== undefined) data.enabled = patch.enabled;
    if (patch.trigger !== undefined) {
      data.trigger = json(patch.trigger);
      data.triggerEvent = patch.trigger.event;
    }
    if (patch.conditions !== undefined) data.conditions = json(patch.conditions);
    if (patch.actions !== undefined) data.actions = json(patch.actions);
    if (patch.senderIds !== undefined) data.senderIds = await senderIdsOf(tx, p.customerId, patch.senderIds);
    // Only what the patch sets: switching off a rule whose label was deleted since stays possible.
    await checkLabels(tx, p.customerId, patch);
    const { count } = await tx.automationRule.updateMany({
      where: { id: uid, customerId: p.customerId, ...USER_RULES },
      data,
    });
    if (count === 0) throw ruleNotFound(uid);
    await recordAudit(tx, {
      ...auditContext(p),
      action: "automation.updated",
      target: { type: "automation", uid },
      details: {
        fields: Object.keys(patch).sort(),
        ...(patch.enabled !== undefined ? { enabled: patch.enabled } : {}),
      },
    });
    return getRule(p, uid, tx);
  });
}

export async function deleteRule(p: Principal, uid: string): Promise<void> {
  guard(p);
  await db.$transaction(async (tx) => {
    const rule = await getRule(p, uid, tx);
    await tx.automationRule.deleteMany({ where: { id: uid, customerId: p.customerId, ...USER_RULES } });
    // Its timers go with it (a time job of a deleted rule would find nothing to run anyway).
    await tx.$executeRaw`UPDATE "ScheduledJob" SET status = 'CANCELLED', "updatedAt" = (now() AT TIME ZONE 'UTC')
      WHERE "customerId" = ${p.customerId} AND status = 'PENDING' AND kind = 'automation.time' AND payload ->> 'ruleId' = ${uid}`;
    await recordAudit(tx, {
      ...auditContext(p),
      action: "automation.deleted",
      target: { type: "automation", uid },
      details: { name: rule.name },
    });
  });
}

/** A rule's runs, newest first. */
export async function listRuns(
  p: Principal,
  uid: string,
  page: PageInput,
): Promise<{ runs: AutomationRun[]; total: number }> {
  const rule = await getRule(p, uid);
  const where = { ruleId: rule.id, customerId: p.customerId };
  const [runs, total] = await Promise.all([
    db.automationRun.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...skipTake(page) }),
    db.automationRun.count({ where }),
  ]);
  return { runs, total };
}
export type DayCount = { day: string; done: number; skipped: number; failed: number };

/** Runs per day (UTC) over the last `days` days, by outcome: the rule page's counts. */
export async function runCountsPerDay(p: Principal, uid: string, days = 14): Promise<DayCount[]> {
  const rule = await getRule(p, uid);
  const rows = await db.$queryRaw<{ day: string; outcome: string; n: number }[]>`
    SELECT to_char(date_trunc('day', "createdAt"), 'YYYY-MM-DD') AS day, outcome, count(*)::int AS n
    FROM "AutomationRun" WHERE "ruleId" = ${rule.id} AND "customerId" = ${p.customerId}
      AND "createdAt" >= (now() AT TIME ZONE 'UTC') - (${days} * interval '1 day')
    GROUP BY 1, 2 ORDER BY 1 DESC`;
  const byDay = new Map<string, DayCount>();
  for (const r of rows) {
    const entry = byDay.get(r.day) ?? { day: r.day, done: 0, skipped: 0, failed: 0 };
    if (r.outcome === "done" || r.outcome === "pending") entry.done += r.n;
    else if (r.outcome === "skipped") entry.skipped += r.n;
    else entry.failed += r.n;
    byDay.set(r.day, entry);
  }
  return [...byDay.values()];
}
