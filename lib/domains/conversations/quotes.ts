// Quoted replies (docs/conversations.md "Quoted replies"): the message an entry quotes, kept on
// the entry as `replyTo {messageId, providerMessageId, preview}`. A contact's message names the
// quoted one by its provider id (the callback's `context.id`); a tap on buttons names the
// message tapped the same way. Only an entry of the same conversation resolves: a provider id
// of another conversation (or account) is kept as an unknown quote, never looked through.
import { hotRows, type Tx } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { previewOf } from "./content";

export type ReplyTo = { messageId: string | null; providerMessageId: string | null; preview: string | null };

type Obj = Record<string, unknown>;

/** The provider id a callback's message quotes (its `context.id`), if any. */
export function quotedProviderId(body: Obj): string | null {
  const context = body.context as { id?: unknown } | undefined;
  return typeof context?.id === "string" && context.id !== "" ? context.id : null;
}

type QuotedRow = {
  id: string;
  conversationId: string;
  type: string;
  content: Obj | null;
  inboundId: string | null;
  outboundId: string | null;
  payload: Obj | null;
};

const keyOf = (conversationId: string, providerMessageId: string) => `${conversationId}|${providerMessageId}`;

/**
 * The quoted entries of these (conversation, quoted provider id) pairs, one read: keyed by
 * both, so a provider id resolves only inside its own conversation.
 */
export async function resolveQuotes(
  tx: Tx,
  quotes: readonly { customerId: string; conversationId: string; providerMessageId: string }[],
): Promise<Map<string, ReplyTo>> {
  const found = new Map<string, ReplyTo>();
  if (quotes.length === 0) return found;
  // Two lookups by the unique provider ids (an inbound entry's, an outbound message's), each
  // kept only when its entry is of the quoting conversation.
  const rows = await tx.$queryRawUnsafe<QuotedRow[]>(
    `SELECT e."id", e."conversationId", e."type", e."content", e."providerMessageId" AS "inboundId",
            NULL AS "outboundId", NULL::jsonb AS "payload"
       FROM unnest($1::text[], $2::text[], $3::text[]) AS q(conv, pmid, customer)
       JOIN "ConversationMessage" e ON e."providerMessageId" = q.pmid AND e."conversationId" = q.conv
      WHERE e."customerId" = q.customer
     UNION ALL
     SELECT e."id", e."conversationId", e."type", e."content", NULL, m."providerMessageId", m."payload"
       FROM unnest($1::text[], $2::text[], $3::text[]) AS q(conv, pmid, customer)
       JOIN "Message" m ON m."providerMessageId" = q.pmid AND m."customerId" = q.customer
       JOIN "ConversationMessage" e ON e."messageId" = m."id" AND e."conversationId" = q.conv`,
    quotes.map((q) => q.conversationId),
    quotes.map((q) => q.providerMessageId),
    quotes.map((q) => q.customerId),
  );
  for (const r of rows) {
    const providerMessageId = r.inboundId ?? r.outboundId ?? "";
    const body = r.payload ?? r.content ?? {};
    const type = r.payload ? String(r.payload.type ?? r.type) : r.type;
    found.set(keyOf(r.conversationId, providerMessageId), {
      messageId: r.id,
      providerMessageId,
      preview: previewOf(type, body),
    });
  }
  return found;
}

/** The replyTo of one quote: the resolved entry, or the provider id alone when it is not of this conversation. */
export function replyToOf(found: Map<string, ReplyTo>, conversationId: string, providerMessageId: string): ReplyTo {
  return found.get(keyOf(conversationId, providerMessageId)) ?? { messageId: null, providerMessageId, preview: null };
}

/** A thread entry a send names (a reaction's message, a quoted reply's): what the provider body needs of it. */
export type NamedEntry = {
  messageId: string;
  conversationId: string;
  providerMessageId: string | null;
  preview: string;
  createdAt: Date;
};

/** How a send names an entry: its messageUid (our routes) or its provider id (the provider-shaped routes). */
export type EntryRef = { messageUid: string } | { providerMessageId: string };

/**
 * The entry named in the conversation of (sender, contact), or null: an entry of another
 * conversation or account is never found. A note has no provider id to name.
 */
export async function entryInConversation(
  customerId: string,
  senderId: string,
  contact: string,
  ref: EntryRef,
): Promise<NamedEntry | null> {
  const which =
    "messageUid" in ref
      ? Prisma.sql`e."id" = ${ref.messageUid}`
      : Prisma.sql`(e."providerMessageId" = ${ref.providerMessageId} OR e."messageId" = (SELECT x."id" FROM "Message" x
          WHERE x."providerMessageId" = ${ref.providerMessageId} AND x."customerId" = ${customerId}))`;
  const [row] = await hotRows<QuotedRow & { createdAt: Date }>(
    Prisma.sql`SELECT e."id", e."conversationId", e."type", e."content", e."providerMessageId" AS "inboundId",
        m."providerMessageId" AS "outboundId", m."payload", e."createdAt"
      FROM "ConversationMessage" e
      JOIN "Conversation" c ON c."id" = e."conversationId" AND c."customerId" = ${customerId}
      LEFT JOIN "Message" m ON m."id" = e."messageId" AND m."customerId" = ${customerId}
      WHERE ${which} AND e."customerId" = ${customerId} AND e."direction" <> 'system'
        AND c."senderId" = ${senderId} AND c."contactPhoneNumber" = ${contact}`,
  );
  if (!row) return null;
  const body = row.payload ?? row.content ?? {};
  const type = row.payload ? String(row.payload.type ?? row.type) : row.type;
  return {
    messageId: row.id,
    conversationId: row.conversationId,
    providerMessageId: row.inboundId ?? row.outboundId,
    preview: previewOf(type, body),
    createdAt: row.createdAt,
  };
}
