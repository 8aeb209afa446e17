// Provider statuses -> BillingRecord upserts (by provider message id) and one ledger debit
// per payable message (the payable rule: payable.ts; pricing: pricing.ts and the rate card;
// status order: status-machine.ts). Runs inside the caller's transaction (the event ingest,
// lib/ingest/statuses.ts); the record rows are locked (FOR UPDATE, in messageId
// order) before they are read, and every insert is guarded by a unique key, so two
// processors handling the same message at once cannot double-debit. The writes are
// set-based (lib/db/bulk.ts): one statement per table per batch, whatever its size (the
// ingest throughput of docs/benchmarks.md rests on it), and every read is raw SQL too, so the
// processor can run them in a plain transaction (lib/db/plain-tx.ts) without the ORM.
import type { Tx } from "@/lib/db";
import { type Column, insertIgnore, updateMany } from "@/lib/db/bulk";
import { NOW_UTC, newId } from "@/lib/db/sql";
import type { ProviderStatusT } from "@/lib/domains/provider/callbacks/schemas";
import { Prisma } from "@/lib/generated/prisma/client";
import { noteSpending } from "./low-balance";
import { customerRates } from "./rate-card";
import {
  applyStatus,
  batchOrder,
  initialState,
  type RecordState,
  settleBillingClass,
  type Transition,
} from "./status-machine";

/** The sender a status arrived for (the provider phone number id of the callback). */
export type RecordSender = { id: string; customerId: string; phoneNumber: string; phoneNumberId: string | null };
/** sendRoute: the route of the message it is about, or "external" (no message of this service holds its id). */
export type StatusItem = { sender: RecordSender; update: ProviderStatusT; sendRoute?: string };
/** A billing record as the status application sees it (rate as exact numeric text). */
export type BillingRow = RecordState & {
  id: string;
  messageId: string;
  sender: RecordSender;
  rate: string;
  currency: string;
  sendRoute: string | null;
};
type Row = BillingRow;
/** A status that moved a record: the record after the batch, and the move. */
export type AppliedStatus = { row: BillingRow; t: Transition };

const STATE_COLUMNS: Column<Row>[] = [
  { name: "id", type: "text", get: (r) => r.id },
  { name: "status", type: "text", get: (r) => r.status },
  { name: "recipientId", type: "text", get: (r) => r.recipientId },
  { name: "billable", type: "bool", get: (r) => r.billable },
  { name: "billingClass", type: "text", get: (r) => r.billingClass },
  { name: "pricingModel", type: "text", get: (r) => r.pricingModel },
  { name: "pricingCategory", type: "text", get: (r) => r.pricingCategory },
  { name: "templateType", type: "text", get: (r) => r.templateType },
  { name: "pricingType", type: "text", get: (r) => r.pricingType },
  { name: "rate", type: "numeric", get: (r) => r.rate },
  { name: "conversationId", type: "text", get: (r) => r.conversationId },
  { name: "conversationOriginType", type: "text", get: (r) => r.conversationOriginType },
  { name: "errorCode", type: "int", get: (r) => r.errorCode },
  { name: "errorTitle", type: "text", get: (r) => r.errorTitle },
  { name: "sentAt", type: "timestamp", get: (r) => r.sentAt },
  { name: "deliveredAt", type: "timestamp", get: (r) => r.deliveredAt },
  { name: "readAt", type: "timestamp", get: (r) => r.readAt },
  { name: "failedAt", type: "timestamp", get: (r) => r.failedAt },
];

const INSERT_COLUMNS: Column<Row>[] = [
  ...STATE_COLUMNS,
  { name: "customerId", type: "text", get: (r) => r.sender.customerId },
  { name: "senderId", type: "text", get: (r) => r.sender.id },
  { name: "phoneNumberId", type: "text", get: (r) => r.sender.phoneNumberId ?? "" },
  { name: "senderPhoneNumber", type: "text", get: (r) => r.sender.phoneNumber },
  { name: "messageId", type: "text", get: (r) => r.messageId },
  { name: "messageTimestamp", type: "timestamp", get: (r) => r.messageTimestamp },
  { name: "sendRoute", type: "text", get: (r) => r.sendRoute },
];

type Debit = { id: string; row: Row };
const DEBIT_COLUMNS: Column<Debit>[] = [
  { name: "id", type: "text", get: (d) => d.id },
  { name: "customerId", type: "text", get: (d) => d.row.sender.customerId },
  { name: "senderId", type: "text", get: (d) => d.row.sender.id },
  { name: "billingRecordId", type: "text", get: (d) => d.row.id },
  { name: "idempotencyKey", type: "text", get: (d) => `debit:${d.row.id}` },
  { name: "amount", type: "numeric", get: (d) => d.row.rate },
  { name: "currency", type: "text", get: (d) => d.row.currency },
  { name: "description", type: "text", get: (d) => `Message ${d.row.messageId}` },
  { name: "templateType", type: "text", get: (d) => d.row.templateType },
  { name: "billingClass", type: "text", get: (d) => d.row.billingClass },
  { name: "pricingCategory", type: "text", get: (d) => d.row.pricingCategory },
];

const snapshot = (r: Row) => JSON.stringify(STATE_COLUMNS.map((c) => c.get(r)));

/** A billing record as lockAndLoad reads it (raw: the rate as numeric text), with its own sender. */
type RecordRow = Omit<Row, "sender" | "billingClass" | "templateType"> & {
  billingClass: string;
  templateType: string | null;
  senderId: string;
  senderCustomerId: string;
  senderPhoneNumber: string;
  senderPhoneNumberId: string | null;
};

function fromRecord(record: RecordRow, sender: RecordSender): Row {
  const { senderId: _s, senderCustomerId: _c, senderPhoneNumber: _p, senderPhoneNumberId: _n, ...state } = record;
  return {
    ...state,
    // Exact text as Decimal writes it ("0.02", "0"): the form rates are compared and re-read in.
    rate: new Prisma.Decimal(record.rate).toString(),
    sender,
    billingClass: record.billingClass === "payable" ? "payable" : "free",
    templateType: record.templateType as Row["templateType"],
  };
}

/**
 * Applies all statuses of one batch to their billing records and writes the debits of the
 * records that became payable; returns the status moves (for the caller's events).
 */
export async function applyStatuses(tx: Tx, items: StatusItem[]): Promise<AppliedStatus[]> {
  if (items.length === 0) return [];
  const groups = new Map<string, StatusItem[]>();
  for (const item of items) {
    const list = groups.get(item.update.id) ?? [];
    list.push(item);
    groups.set(item.update.id, list);
  }
  for (const list of groups.values()) list.sort((a, b) => batchOrder(a.update, b.update));
  const messageIds = [...groups.keys()].sort();
  // The rate card read once per customer of the batch (one statement each), not per category.
  const rates = new Map<string, Promise<(category: string) => string>>();
  const rateOf = async (customerId: string, category: string) => {
    let rate = rates.get(customerId);
    if (!rate) {
      rate = customerRates(tx, customerId);
      rates.set(customerId, rate);
    }
    return (await rate)(category);
  };

  const transitions: AppliedStatus[] = [];
  const debits: Debit[] = [];
  const updates: Row[] = [];

  // Applies a message's statuses to its row; collects events, debit and whether it changed.
  const apply = async (row: Row, list: StatusItem[], isNew: boolean) => {
    const before = snapshot(row);
    const categoryBefore = row.pricingCategory;
    let fresh = isNew;
    for (const { update } of list) {
      const t = applyStatus(row, update, fresh);
      fresh = false;
      if (t) transitions.push({ row, t });
    }
    if (row.pricingCategory && (isNew || row.pricingCategory !== categoryBefore || row.rate === "0")) {
      row.rate = row.billable ? await rateOf(row.sender.customerId, row.pricingCategory) : "0";
    }
    settleBillingClass(row);
    const changed = snapshot(row) !== before;
    // A payable record has exactly one debit: every change re-asserts it, and the unique
    // idempotency key ignores it when it exists (also mends records that became payable
    // under an earlier rule without their debit).
    if (row.billingClass === "payable" && (isNew || changed)) debits.push({ id: newId("txn_"), row });
    return changed;
  };

  const existing = await lockAndLoad(tx, messageIds, groups);
  const inserts: Row[] = [];
  for (const messageId of messageIds) {
    const list = groups.get(messageId) ?? [];
    const found = existing.get(messageId);
    if (found) {
      if (await apply(found, list, false)) updates.push(found);
      continue;
    }
    const first = list[0];
    if (!first) continue;
    const row: Row = {
      ...initialState(first.update),
      id: newId("bill_"),
      messageId,
      sender: first.sender,
      rate: "0",
      currency: "USD",
      sendRoute: first.sendRoute ?? null,
    };
    const before = transitions.length;
    await apply(row, list, true);
    if (transitions.length > before) inserts.push(row);
  }

  const inserted = await insertIgnore<Row, { messageId: string }>(
    tx,
    "BillingRecord",
    inserts,
    INSERT_COLUMNS,
    `"messageId"`,
    `"messageId"`,
    {
      createdAt: NOW_UTC,
      updatedAt: NOW_UTC,
    },
  );
  if (inserted.length < inserts.length) {
    // Another processor created some of these meanwhile: redo those messages against the stored rows.
    const won = new Set(inserted.map((r) => r.messageId));
    const lost = new Set(inserts.filter((r) => !won.has(r.messageId)).map((r) => r.messageId));
    dropWhere(transitions, (x) => lost.has(x.row.messageId));
    dropWhere(debits, (d) => lost.has(d.row.messageId));
    const again = await lockAndLoad(tx, [...lost].sort(), groups);
    for (const [messageId, row] of again) if (await apply(row, groups.get(messageId) ?? [], false)) updates.push(row);
  }
  await updateMany(tx, "BillingRecord", "id", updates, STATE_COLUMNS, { updatedAt: NOW_UTC });
  await insertIgnore(tx, "BillingTransaction", debits, DEBIT_COLUMNS, `"idempotencyKey"`, "id", {
    type: `'debit'::"TransactionType"`,
    createdAt: NOW_UTC,
  });
  // The low-balance alert is decided a moment later, off this transaction (low-balance.ts).
  if (debits.length > 0) noteSpending(debits.map((d) => d.row.sender.customerId));
  return transitions;
}

/**
 * The sender of the billing record of each of these provider message ids that has one (a record
 * may exist without a message of this service: the demo's, those kept before statuses were matched
 * to messages).
 */
export async function recordSenders(tx: Tx, messageIds: readonly string[]): Promise<Map<string, string>> {
  if (messageIds.length === 0) return new Map();
  const rows = await tx.$queryRawUnsafe<{ messageId: string; senderId: string }[]>(
    `SELECT "messageId", "senderId" FROM "BillingRecord" WHERE "messageId" = ANY($1::text[])`,
    [...new Set(messageIds)],
  );
  return new Map(rows.map((r) => [r.messageId, r.senderId]));
}

/**
 * Records kept as "external" whose id a message of this service now holds (a status that arrived
 * before its send recorded the provider id) take that message's route. Rows this batch locked.
 */
export async function adoptSendRoutes(tx: Tx, messageIds: readonly string[]): Promise<AdoptedRecord[]> {
  if (messageIds.length === 0) return [];
  return tx.$queryRawUnsafe<AdoptedRecord[]>(
    `UPDATE "BillingRecord" b SET "sendRoute" = m."sendRoute", "updatedAt" = ${NOW_UTC}
       FROM "Message" m
      WHERE b."messageId" = ANY($1::text[]) AND b."sendRoute" = 'external'
        AND m."providerMessageId" = b."messageId" AND m."customerId" = b."customerId" AND m."sendRoute" <> 'external'
      RETURNING b."messageId", b."status", b."errorCode", b."errorTitle"`,
    [...new Set(messageIds)].sort(),
  );
}
/** A record a send adopted: where its statuses left it, for its message to follow. */
export type AdoptedRecord = { messageId: string; status: string; errorCode: number | null; errorTitle: string | null };

function dropWhere<T>(list: T[], predicate: (x: T) => boolean) {
  for (let i = list.length - 1; i >= 0; i--) if (predicate(list[i] as T)) list.splice(i, 1);
}

/** Locks the records of these messages (in messageId order) and reads them with their senders: one statement. */
async function lockAndLoad(tx: Tx, messageIds: string[], groups: Map<string, StatusItem[]>) {
  const out = new Map<string, Row>();
  if (messageIds.length === 0) return out;
  const records = await tx.$queryRawUnsafe<RecordRow[]>(
    `SELECT b."id", b."messageId", b."recipientId", b."status", b."billable", b."billingClass", b."pricingModel",
        b."pricingCategory", b."templateType", b."pricingType", b."rate"::text AS "rate", b."currency",
        b."conversationId", b."conversationOriginType", b."errorCode", b."errorTitle", b."messageTimestamp",
        b."sentAt", b."deliveredAt", b."readAt", b."failedAt", b."sendRoute",
        s."id" AS "senderId", s."customerId" AS "senderCustomerId", s."phoneNumber" AS "senderPhoneNumber",
        s."phoneNumberId" AS "senderPhoneNumberId"
       FROM "BillingRecord" b JOIN "Sender" s ON s."id" = b."senderId"
      WHERE b."messageId" = ANY($1::text[]) ORDER BY b."messageId" FOR UPDATE OF b`,
    messageIds,
  );
  for (const record of records) {
    const item = groups.get(record.messageId)?.[0];
    const sender: RecordSender =
      item && item.sender.id === record.senderId
        ? item.sender
        : {
            id: record.senderId,
            customerId: record.senderCustomerId,
            phoneNumber: record.senderPhoneNumber,
            phoneNumberId: record.senderPhoneNumberId,
          };
    out.set(record.messageId, fromRecord(record, sender));
  }
  return out;
}
