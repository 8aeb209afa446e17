// Broadcasts (docs/broadcasts.md): create, read, list, update, preview, start or schedule,
// pause, resume, cancel, and the recipients list. Every read and write carries the customer,
// and the resolved sender when there is one, in its WHERE: another customer's or sender's
// uid is BROADCAST_NOT_FOUND. The checks of a change are made here; the change of state
// itself is lifecycle.ts's (the broadcast's row locked, one short transaction: a refused
// change leaves the broadcast as it was), the same transitions the dispatcher makes.

import { ApiError } from "@/lib/core/errors";
import { skipTake } from "@/lib/core/pagination";
import { db, type Tx } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import type { Principal } from "@/lib/domains/auth/principal";
import { ledgerBalance } from "@/lib/domains/billing/ledger";
import type { MediaKind } from "@/lib/domains/media/kinds";
import { MEDIA_ID_PATTERN } from "@/lib/domains/media/schemas";
import { assertSendableMedia } from "@/lib/domains/media/send-media";
import { renderTemplate } from "@/lib/domains/templates/fill";
import { templateParameters } from "@/lib/domains/templates/parameters";
import { findTemplate } from "@/lib/domains/templates/send-template";
import type { Broadcast, Prisma, Sender, Template } from "@/lib/generated/prisma/client";
import type { AudienceInput } from "./audience";
import { audienceSamples, estimateOf, tally } from "./audience-count";
import { assertBalanceCovers } from "./cost";
import * as lifecycle from "./lifecycle";
import { filledValues } from "./recipient-message";
import type {
  Audience,
  BroadcastCreateInput,
  BroadcastListQuery,
  BroadcastPatch,
  PreviewPublic,
  RecipientListQuery,
  Variables,
} from "./schemas";
import { audienceRulesOf, type StoredAudience, segmentForAudience, withSnapshot } from "./segments";
import { type BroadcastRow, WITH_SENDER } from "./serializers";
import { broadcastNotFound, lockBroadcast, STATE_CHANGE, stateConflict } from "./state-lock";

/** The tenant part of every WHERE: the customer, and the sender when one is resolved or bound. */
export function broadcastScope(p: Principal, sender: Sender | undefined): { customerId: string; senderId?: string } {
  if (sender) {
    if (sender.customerId !== p.customerId) throw new ApiError("SENDER_NOT_FOUND", "Sender not found");
    if (p.scopedSenderId && p.scopedSenderId !== sender.id) {
      throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "This token is bound to another sender");
    }
    return { customerId: p.customerId, senderId: sender.id };
  }
  return { customerId: p.customerId, ...(p.scopedSenderId ? { senderId: p.scopedSenderId } : {}) };
}

const audienceOf = (b: Pick<Broadcast, "audience">) => b.audience as unknown as Audience;
const variablesOf = (b: Pick<Broadcast, "variables">) => b.variables as unknown as Variables;

const MEDIA_HEADERS: ReadonlySet<string> = new Set(["image", "video", "document"]);
const MEDIA_ID = new RegExp(`^${MEDIA_ID_PATTERN.source}$`);

/** The header's file, one for every recipient (docs/broadcasts.md "Media headers"): a mediaId or an https link. */
function headerFileProblem(header: Variables["header"]): string | null {
  const [only] = header;
  const value = only?.source === "constant" ? (only.value ?? "").trim() : "";
  if (header.length !== 1 || !(MEDIA_ID.test(value) || /^https:\/\/\S+$/.test(value))) {
    return 'a media header maps one {source: "constant", value} whose value is a mediaId (POST /media) or an https link';
  }
  return null;
}

/** The template's slots against the mapping: every {{n}} needs one entry, in order; a media header one file. */
export function assertMapping(template: Template | null, variables: Variables): void {
  if (!template) return;
  const { slots } = templateParameters(template.components);
  const fields: { path: string; message: string }[] = [];
  for (const component of ["body", "header"] as const) {
    const mine = slots.filter((s) => s.component === component);
    if (mine.some((s) => s.kind !== "text")) {
      const file = component === "header" && mine.some((s) => MEDIA_HEADERS.has(s.kind));
      const problem = file
        ? headerFileProblem(variables.header)
        : `a ${component} with ${mine[0]?.kind} is not supported`;
      if (problem) fields.push({ path: `body.broadcast.variables.${component}`, message: problem });
      continue;
    }
    const given = variables[component].length;
    if (given !== mine.length) {
      fields.push({
        path: `body.broadcast.variables.${component}`,
        message: `template ${template.name} has ${mine.length} ${component} parameter(s); ${given} mapped`,
      });
    }
  }
  if (slots.some((s) => s.component === "button" && s.required)) {
    fields.push({ path: "body.broadcast.template", message: "templates with button parameters are not supported" });
  }
  if (fields.length > 0) {
    throw new ApiError("VALIDATION_FAILED", fields.map((f) => `${f.path}: ${f.message}`).join("; "), { fields });
  }
}

/**
 * A media header's file named by mediaId: the caller's, ready and of the header's kind, checked
 * when the broadcast is saved and started (the sends check it again, once per batch), so a
 * broadcast never starts with a file it cannot send. Every recipient gets the same file: the
 * provider's copy is uploaded once for the sender (lib/domains/media/provider-media.ts).
 */
export async function assertHeaderMedia(p: Principal, template: Template, variables: Variables): Promise<void> {
  const slot = templateParameters(template.components).slots.find(
    (s) => s.component === "header" && MEDIA_HEADERS.has(s.kind),
  );
  const value = variables.header[0]?.value?.trim() ?? "";
  if (slot && MEDIA_ID.test(value)) await assertSendableMedia(p, value, slot.kind as MediaKind);
}

export async function templateOf(customerId: string, name: string, language: string): Promise<Template> {
  const template = await findTemplate(customerId, name, language);
  if (!template) {
    throw new ApiError("TEMPLATE_NOT_FOUND", `Template ${name} (${language}) does not exist`, {
      template: name,
      language,
    });
  }
  return template;
}

export function approved(template: Template): void {
  if (template.status !== "APPROVED") {
    throw new ApiError(
      "TEMPLATE_NOT_APPROVED",
      `Template ${template.name} (${template.language}) is ${template.status}, not APPROVED`,
      { template: template.name, language: template.language, status: template.status },
    );
  }
}

/**
 * Contact books and the segment must be the customer's own: another account's uid is refused
 * naming the field. A segment is account-wide (every sender's conversations), so a
 * number-scoped token may not name one, as it may not read segments (docs/automation.md
 * "Segments").
 */
export async function assertBooks(p: Principal, audience: Audience): Promise<void> {
  const customerId = p.customerId;
  if (audience.segmentUid !== undefined) {
    if (p.scopedSenderId) {
      throw new ApiError(
        "TOKEN_SCOPE_NOT_ALLOWED",
        "audience.segmentUid needs a global token (segments are account-wide)",
      );
    }
    await segmentForAudience(db, customerId, audience.segmentUid);
  }
  if (audience.contactBookUids.length === 0) return;
  const found = await db.contactBook.findMany({
    where: { customerId, id: { in: audience.contactBookUids } },
    select: { id: true },
  });
  const known = new Set(found.map((b) => b.id));
  const unknown = audience.contactBookUids.filter((u) => !known.has(u));
  if (unknown.length > 0) {
    throw new ApiError("VALIDATION_FAILED", `contact book(s) not found: ${unknown.join(", ")}`, {
      fields: [{ path: "body.broadcast.audience.contactBookUids", message: `not found: ${unknown.join(", ")}` }],
    });
  }
}

export async function createBroadcast(
  p: Principal,
  sender: Sender,
  input: BroadcastCreateInput,
): Promise<BroadcastRow> {
  const scope = broadcastScope(p, sender);
  const template = await templateOf(p.customerId, input.template.name, input.template.language);
  assertMapping(template, input.variables);
  await assertHeaderMedia(p, template, input.variables);
  await assertBooks(p, input.audience);
  return db.broadcast.create({
    data: {
      id: newId("bc_"),
      customerId: scope.customerId,
      senderId: sender.id,
      name: input.name,
      templateName: template.name,
      templateLanguage: template.language,
      audience: input.audience as unknown as Prisma.InputJsonValue,
      variables: input.variables as unknown as Prisma.InputJsonValue,
      scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
      maxPerSecond: input.maxPerSecond ?? null,
    },
    include: WITH_SENDER,
  });
}

export async function getBroadcast(
  p: Principal,
  sender: Sender | undefined,
  uid: string,
  tx: Tx = db,
): Promise<BroadcastRow> {
  const row = await tx.broadcast.findFirst({ where: { id: uid, ...broadcastScope(p, sender) }, include: WITH_SENDER });
  if (!row) throw broadcastNotFound(uid);
  return row;
}

export async function listBroadcasts(
  p: Principal,
  sender: Sender | undefined,
  query: Pick<BroadcastListQuery, "status" | "page" | "limit">,
): Promise<{ broadcasts: BroadcastRow[]; total: number }> {
  const where: Prisma.BroadcastWhereInput = {
    ...broadcastScope(p, sender),
    ...(query.status ? { status: query.status } : {}),
  };
  const [broadcasts, total] = await Promise.all([
    db.broadcast.findMany({
      where,
      include: WITH_SENDER,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...skipTake(query),
    }),
    db.broadcast.count({ where }),
  ]);
  return { broadcasts, total };
}

/** Applies a patch while DRAFT or SCHEDULED (the mapping checked against the template). */
export async function updateBroadcast(
  p: Principal,
  sender: Sender | undefined,
  uid: string,
  patch: BroadcastPatch,
): Promise<BroadcastRow> {
  const scope = broadcastScope(p, sender);
  const current = await getBroadcast(p, sender, uid);
  const ref = patch.template ?? { name: current.templateName, language: current.templateLanguage };
  const template = await templateOf(p.customerId, ref.name, ref.language);
  assertMapping(template, patch.variables ?? variablesOf(current));
  await assertHeaderMedia(p, template, patch.variables ?? variablesOf(current));
  if (patch.audience) await assertBooks(p, patch.audience);
  return db.$transaction(async (tx) => {
    const row = await lockBroadcast(tx, scope, uid);
    if (row.status !== "DRAFT" && row.status !== "SCHEDULED") throw stateConflict(uid, row.status, "be updated");
    const data: Prisma.BroadcastUpdateManyMutationInput = {};
    if (patch.name !== undefined) data.name = patch.name;
    if (patch.template) {
      data.templateName = template.name;
      data.templateLanguage = template.language;
    }
    // A scheduled broadcast has its segment's rules already (its start took them): a new audience takes them now.
    if (patch.audience) {
      const audience =
        row.status === "SCHEDULED" ? await withSnapshot(tx, p.customerId, patch.audience) : patch.audience;
      data.audience = audience as unknown as Prisma.InputJsonValue;
    }
    if (patch.variables) data.variables = patch.variables as unknown as Prisma.InputJsonValue;
    if (patch.scheduledAt !== undefined) data.scheduledAt = patch.scheduledAt ? new Date(patch.scheduledAt) : null;
    if (patch.maxPerSecond !== undefined) data.maxPerSecond = patch.maxPerSecond;
    await tx.broadcast.updateMany({ where: { id: uid, ...scope }, data });
    return getBroadcast(p, sender, uid, tx);
  }, STATE_CHANGE);
}

/** The audience query's input for a broadcast: a segment's rules as its start took them, else as they are now. */
const audienceInput = async (
  b: Pick<Broadcast, "customerId" | "senderId" | "audience" | "variables">,
  stored: StoredAudience = audienceOf(b),
  now = new Date(),
): Promise<AudienceInput> => ({
  customerId: b.customerId,
  senderId: b.senderId,
  audience: await audienceRulesOf(db, b.customerId, stored, "audience.segmentUid"),
  variables: variablesOf(b),
  now,
});

const senderOf = (id: string) => db.sender.findUniqueOrThrow({ where: { id } });

/** The audience count with skipped-by-reason, the estimate and up to 5 rendered samples; sends nothing. */
export async function previewBroadcast(p: Principal, sender: Sender | undefined, uid: string): Promise<PreviewPublic> {
  const row = await getBroadcast(p, sender, uid);
  const template = await templateOf(p.customerId, row.templateName, row.templateLanguage);
  const input = await audienceInput(row);
  const t = await tally(db, input);
  const estimate = await estimateOf(db, row, await senderOf(row.senderId), template, t);
  const samples = await audienceSamples(db, input, 5);
  return {
    estimate,
    skippedByReason: {
      blacklisted: t.blacklisted,
      invalid_number: t.invalid_number,
      missing_variable: t.missing_variable,
    },
    samples: samples.map((s) => ({
      phoneNumber: s.phone,
      text: renderTemplate(template.components, filledValues(s.parameters)).body,
    })),
  };
}

/**
 * Starts now or schedules (scheduledAt in the future). The balance must cover the estimate
 * (402 INSUFFICIENT_BALANCE with {estimate, balance, currency}); a refusal changes nothing.
 * The audience is counted before the state change (no lock held meanwhile); the change itself
 * is one short transaction (the broadcast unchanged since it was counted, else 409), and a
 * start now makes the broadcast STARTING: its recipients are made in bounded chunks
 * afterwards (lib/domains/broadcasts/materialise.ts), here for a moment and then by the
 * dispatcher's housekeeping. A small audience is SENDING when this returns.
 */
export async function startBroadcast(
  p: Principal,
  sender: Sender | undefined,
  uid: string,
  scheduledAt: string | null | undefined,
  now = new Date(),
): Promise<BroadcastRow> {
  const scope = broadcastScope(p, sender);
  const current = await getBroadcast(p, sender, uid);
  if (current.status !== "DRAFT" && current.status !== "SCHEDULED") throw stateConflict(uid, current.status, "start");
  const template = await templateOf(p.customerId, current.templateName, current.templateLanguage);
  approved(template);
  assertMapping(template, variablesOf(current));
  await assertHeaderMedia(p, template, variablesOf(current));
  const at = scheduledAt ? new Date(scheduledAt) : null;
  const later = at !== null && at.getTime() > now.getTime();
  // Read before the transaction (the ledger's reader is not transaction-bound); the debits
  // themselves come later, with the provider's statuses.
  const balance = await ledgerBalance(p.customerId);
  // A segment is evaluated at the start: its rules as they are now go with the broadcast (a
  // segment changed or deleted later changes nothing); one deleted meanwhile is refused by name.
  const audience = await withSnapshot(db, p.customerId, audienceOf(current), "audience.segmentUid");
  const estimate = await estimateOf(
    db,
    current,
    await senderOf(current.senderId),
    template,
    await tally(db, await audienceInput(current, audience, now)),
  );
  assertBalanceCovers(balance, estimate, "this broadcast's estimate");
  await lifecycle.start(p, scope, current, { audience, estimate, scheduleFor: later ? at : null }, now);
  return getBroadcast(p, sender, uid);
}

/** SENDING -> PAUSED by a person; PAUSED stays PAUSED (idempotent). */
export async function pauseBroadcast(p: Principal, sender: Sender | undefined, uid: string): Promise<BroadcastRow> {
  await lifecycle.pause(broadcastScope(p, sender), uid);
  return getBroadcast(p, sender, uid);
}

/** PAUSED -> SENDING; SENDING stays SENDING (idempotent). */
export async function resumeBroadcast(p: Principal, sender: Sender | undefined, uid: string): Promise<BroadcastRow> {
  await lifecycle.resume(broadcastScope(p, sender), uid);
  return getBroadcast(p, sender, uid);
}

/**
 * Any state but COMPLETED -> CANCELLED, at once; its queued recipients are skipped in chunks
 * afterwards (lifecycle.ts cancel).
 */
export async function cancelBroadcast(p: Principal, sender: Sender | undefined, uid: string): Promise<BroadcastRow> {
  await lifecycle.cancel(p, broadcastScope(p, sender), uid);
  return getBroadcast(p, sender, uid);
}

export async function listRecipients(
  p: Principal,
  sender: Sender | undefined,
  uid: string,
  query: Pick<RecipientListQuery, "status" | "search" | "page" | "limit">,
) {
  await getBroadcast(p, sender, uid);
  const search = query.search?.replace(/[^0-9+]/g, "");
  const where: Prisma.BroadcastRecipientWhereInput = {
    broadcastId: uid,
    customerId: p.customerId,
    ...(query.status ? { status: query.status } : {}),
    ...(search ? { phoneNumber: { contains: search } } : {}),
  };
  const [recipients, total] = await Promise.all([
    db.broadcastRecipient.findMany({ where, orderBy: { id: "asc" }, ...skipTake(query) }),
    db.broadcastRecipient.count({ where }),
  ]);
  return { recipients, total };
}

/** Failed recipients grouped by provider error code (the broadcast page's failure reasons). */
export async function failuresByCode(p: Principal, sender: Sender | undefined, uid: string) {
  await getBroadcast(p, sender, uid);
  const rows = await db.broadcastRecipient.groupBy({
    by: ["errorCode"],
    where: { broadcastId: uid, customerId: p.customerId, status: "failed" },
    _count: { _all: true },
  });
  return rows.map((r) => ({ errorCode: r.errorCode, count: r._count._all })).sort((a, b) => b.count - a.count);
}
