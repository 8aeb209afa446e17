// Segments, saved audiences (docs/automation.md "Segments"): list, create, read, update,
// delete and the live count. Account-wide: every read and write carries the customer in its
// WHERE (another account's uid is SEGMENT_NOT_FOUND); members need the broadcasts permission
// (checked here, whatever the adapter), tokens a global one. Every change is audited in its
// transaction. The count is the audience query's (lib/domains/broadcasts/audience.ts), the
// statement a broadcast sent to the segment makes its recipients with.
import { ApiError } from "@/lib/core/errors";
import { labelKey } from "@/lib/core/label-key";
import { type PageInput, skipTake } from "@/lib/core/pagination";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { sortNames } from "@/lib/domains/labels/service";
import type { Prisma, Segment } from "@/lib/generated/prisma/client";
import type { AudienceRules } from "./audience";
import { audienceSize } from "./audience-count";
import { type Audience, SEGMENT_UID } from "./schemas";
import type { SegmentInput, SegmentPatch, SegmentRules } from "./segment-schemas";

export const segmentNotFound = (uid: string) =>
  new ApiError("SEGMENT_NOT_FOUND", `Segment ${uid} not found for this account`, { segmentUid: uid });

function guard(p: Principal): void {
  if (p.member) assertPermission(p, "broadcasts");
  if (p.scopedSenderId) throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "Segments need a global token");
}

const refused = (path: string, message: string) =>
  new ApiError("VALIDATION_FAILED", `${path}: ${message}`, { fields: [{ path, message }] });

/**
 * The rules as stored: books the account's own, labels its own (named as the account spells
 * them now); anything else is VALIDATION_FAILED naming the field.
 */
async function checkedRules(tx: Tx, customerId: string, rules: SegmentRules): Promise<SegmentRules> {
  const at = "body.segment.rules";
  const books = [...new Set(rules.contactBookUids)];
  if (books.length > 0) {
    const found = await tx.contactBook.findMany({ where: { customerId, id: { in: books } }, select: { id: true } });
    const unknown = books.filter((b) => !found.some((f) => f.id === b));
    if (unknown.length > 0) throw refused(`${at}.contactBookUids`, `contact book(s) not found: ${unknown.join(", ")}`);
  }
  const keys = [...new Set(rules.labels.map(labelKey))];
  const labels = await tx.label.findMany({
    where: { customerId, nameKey: { in: keys } },
    select: { name: true, nameKey: true },
  });
  const missing = rules.labels.filter((l) => !labels.some((f) => f.nameKey === labelKey(l)));
  if (missing.length > 0) throw refused(`${at}.labels`, `no label named ${missing.map((m) => `"${m}"`).join(", ")}`);
  return {
    ...rules,
    contactBookUids: books,
    labels: keys.map((k) => labels.find((l) => l.nameKey === k)?.name ?? k),
  };
}

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** The stored rules of a row, every field present (rows keep what the schema wrote). */
export function rulesOf(row: Pick<Segment, "rules">): SegmentRules {
  const r = row.rules as Partial<SegmentRules>;
  return {
    contactBookUids: r.contactBookUids ?? [],
    filters: r.filters ?? [],
    labels: r.labels ?? [],
    lastInboundWithin: r.lastInboundWithin ?? null,
    optedIn: r.optedIn ?? false,
  };
}

/** A segment's rules as the audience query takes them. */
export const rulesAudience = (rules: SegmentRules): AudienceRules => ({
  contactBookUids: rules.contactBookUids,
  filters: rules.filters,
  phoneNumbers: [],
  segment: { labels: rules.labels, lastInboundWithin: rules.lastInboundWithin, optedIn: rules.optedIn },
});

export async function createSegment(p: Principal, input: SegmentInput): Promise<Segment> {
  guard(p);
  return db.$transaction(async (tx) => {
    const rules = await checkedRules(tx, p.customerId, input.rules);
    const row = await tx.segment.create({
      data: { id: newId("seg_"), customerId: p.customerId, name: input.name, rules: json(rules) },
    });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "segment.created",
      target: { type: "segment", uid: row.id },
      details: { name: row.name },
    });
    return row;
  });
}

export async function listSegments(p: Principal, page: PageInput): Promise<{ segments: Segment[]; total: number }> {
  guard(p);
  const where = { customerId: p.customerId };
  const [segments, total] = await Promise.all([
    db.segment.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], ...skipTake(page) }),
    db.segment.count({ where }),
  ]);
  return { segments, total };
}

/** Every segment of the account by name (the new-broadcast page's picker). */
export async function segmentChoices(p: Principal): Promise<{ uid: string; name: string }[]> {
  guard(p);
  const rows = await db.segment.findMany({
    where: { customerId: p.customerId },
    select: { id: true, name: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 500,
  });
  return rows.map((r) => ({ uid: r.id, name: r.name }));
}

export async function getSegment(p: Principal, uid: string, tx: Tx = db): Promise<Segment> {
  guard(p);
  const row = SEGMENT_UID.test(uid)
    ? await tx.segment.findFirst({ where: { id: uid, customerId: p.customerId } })
    : null;
  if (!row) throw segmentNotFound(uid);
  return row;
}

export async function updateSegment(p: Principal, uid: string, patch: SegmentPatch): Promise<Segment> {
  guard(p);
  return db.$transaction(async (tx) => {
    const data: Prisma.SegmentUpdateManyMutationInput = {};
    if (patch.name !== undefined) data.name = patch.name;
    if (patch.rules !== undefined) data.rules = json(await checkedRules(tx, p.customerId, patch.rules));
    const { count } = await tx.segment.updateMany({ where: { id: uid, customerId: p.customerId }, data });
    if (count === 0) throw segmentNotFound(uid);
    await recordAudit(tx, {
      ...auditContext(p),
      action: "segment.updated",
      target: { type: "segment", uid },
      details: { fields: Object.keys(patch).sort() },
    });
    return getSegment(p, uid, tx);
  });
}

/** Deletes it; broadcasts started with it keep the rules they were started with. */
export async function deleteSegment(p: Principal, uid: string): Promise<void> {
  guard(p);
  await db.$transaction(async (tx) => {
    const row = await getSegment(p, uid, tx);
    await tx.segment.deleteMany({ where: { id: uid, customerId: p.customerId } });
    await recordAudit(tx, {
      ...auditContext(p),
      action: "segment.deleted",
      target: { type: "segment", uid },
      details: { name: row.name },
    });
  });
}

const sizeOf = (customerId: string, rules: SegmentRules, now: Date) =>
  audienceSize(db, {
    customerId,
    senderId: null,
    audience: rulesAudience(rules),
    variables: { body: [], header: [] },
    now,
  });

/** The unique numbers the rules select now: the recipients (sent to or skipped) a start now would make. */
export async function countSegment(p: Principal, uid: string, now = new Date()): Promise<number> {
  const row = await getSegment(p, uid);
  return sizeOf(p.customerId, rulesOf(row), now);
}

/**
 * The live count of rules not saved yet (the segment form): checked as a save checks them
 * (another account's book, a name that is no label: VALIDATION_FAILED naming the field) and
 * counted by the same query as a saved segment's count.
 */
export async function countSegmentRules(p: Principal, rules: SegmentRules, now = new Date()): Promise<number> {
  guard(p);
  return sizeOf(p.customerId, await checkedRules(db, p.customerId, rules), now);
}

/** The account's label names, sorted, for the segment form's choice of labels. */
export async function segmentLabelChoices(p: Principal): Promise<string[]> {
  guard(p);
  const rows = await db.label.findMany({ where: { customerId: p.customerId }, select: { name: true }, take: 500 });
  return sortNames(rows.map((r) => r.name));
}

/**
 * The segment a broadcast's audience names, read for the broadcast's account: the rules it is
 * counted and started with. One the account does not have is VALIDATION_FAILED naming `path`.
 */
export async function segmentForAudience(
  tx: Tx,
  customerId: string,
  uid: string,
  path = "body.broadcast.audience.segmentUid",
): Promise<{ name: string; rules: SegmentRules }> {
  const row = await tx.segment.findFirst({ where: { id: uid, customerId }, select: { name: true, rules: true } });
  if (!row) throw refused(path, `segment ${uid} not found in this account`);
  return { name: row.name, rules: rulesOf(row) };
}

/** The rules a start took from the segment (docs/automation.md "Segments": a snapshot). */
export type SegmentSnapshot = { name: string; rules: SegmentRules };
/** A broadcast's audience as stored: a segment's carries the snapshot once it was started. */
export type StoredAudience = Audience & { segment?: SegmentSnapshot };

/**
 * What the audience query reads for a broadcast: its books, filters and numbers, or its
 * segment's rules: the snapshot its start took, else the segment as it is now.
 */
export async function audienceRulesOf(
  tx: Tx,
  customerId: string,
  audience: StoredAudience,
  path?: string,
): Promise<AudienceRules> {
  if (audience.segmentUid === undefined) {
    return {
      contactBookUids: audience.contactBookUids,
      filters: audience.filters,
      phoneNumbers: audience.phoneNumbers,
    };
  }
  const snapshot = audience.segment ?? (await segmentForAudience(tx, customerId, audience.segmentUid, path));
  return rulesAudience(snapshot.rules);
}

/** The audience to store with the segment's rules as they are now (a start, or a change of a scheduled one). */
export async function withSnapshot(
  tx: Tx,
  customerId: string,
  audience: Audience,
  path?: string,
): Promise<StoredAudience> {
  if (audience.segmentUid === undefined) return audience;
  const { segment: _old, ...rest } = audience as StoredAudience;
  return { ...rest, segment: await segmentForAudience(tx, customerId, audience.segmentUid, path) };
}
