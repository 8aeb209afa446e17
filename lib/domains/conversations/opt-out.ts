// Opt-out and opt-in by inbound keyword (docs/conversations.md "Opt-out"): a message that
// is, as a whole (trimmed, case- and accent-insensitive), one of the sender's opt-out
// keywords puts the contact on the sender's blacklist (reason "opt-out", the inbound
// message id and time); an opt-in keyword takes an opt-out entry off again. Both leave a
// system note in the thread. Runs for new inbound messages only, so a replay does nothing.

import type { Tx } from "@/lib/db";
import { NOW_UTC } from "@/lib/db/sql";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { systemPrincipal } from "@/lib/domains/auth/principal";
import type { EventSender } from "@/lib/domains/events/emit";
import { typedText } from "./content";
import { newThreadMessageUid } from "./ids";

/** STOP and friends, with their common translations (es, pt, fr, de, it, nl). */
export const DEFAULT_OPT_OUT_KEYWORDS = [
  "STOP",
  "UNSUBSCRIBE",
  "STOPALL",
  "CANCEL",
  "END",
  "QUIT",
  "ALTO",
  "PARAR",
  "BAJA",
  "DETENER",
  "CANCELAR",
  "SAIR",
  "PARE",
  "ARRET",
  "ARRETER",
  "DESABONNER",
  "STOPP",
  "ABMELDEN",
  "ABBESTELLEN",
  "BASTA",
  "ANNULLA",
  "DISISCRIVITI",
  "AFMELDEN",
] as const;
export const DEFAULT_OPT_IN_KEYWORDS = ["START", "UNSTOP", "SUBSCRIBE", "ALTA", "INICIAR", "ANMELDEN"] as const;

/** Trimmed, upper case, accents and surrounding punctuation dropped: " Arrêt! " -> "ARRET". */
export function normalizeKeyword(text: string): string {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .trim()
    .replace(/^[\p{P}\s]+|[\p{P}\s]+$/gu, "")
    .toUpperCase();
}

export type KeywordConfig = { optOutKeywords: string[] | null; optInKeywords: string[] | null };

/** "opt-out", "opt-in" or null for a message text, with the sender's keywords (empty = defaults). */
export function keywordAction(text: string, config: KeywordConfig): "opt-out" | "opt-in" | null {
  const word = normalizeKeyword(text);
  if (!word || word.length > 40) return null;
  const out = config.optOutKeywords?.length ? config.optOutKeywords : DEFAULT_OPT_OUT_KEYWORDS;
  const inn = config.optInKeywords?.length ? config.optInKeywords : DEFAULT_OPT_IN_KEYWORDS;
  if (out.some((k) => normalizeKeyword(k) === word)) return "opt-out";
  if (inn.some((k) => normalizeKeyword(k) === word)) return "opt-in";
  return null;
}

/** A new inbound message (lib/domains/conversations/inbound.ts) in its conversation. */
export type KeywordMessage = {
  sender: EventSender;
  id: string;
  contact: string;
  at: Date;
  /** Where its entry sits in the thread (InboundMessage.threadAt): the note follows it. */
  threadAt: Date;
  type: string;
  body: Record<string, unknown>;
  conversationId: string;
};
type Candidate = KeywordMessage & { text: string };

export async function applyOptKeywords(tx: Tx, news: KeywordMessage[]): Promise<number> {
  const candidates: Candidate[] = [];
  for (const m of news) {
    const text = typedText(m.type, m.body);
    if (text !== undefined && text.trim().length <= 40) candidates.push({ ...m, text });
  }
  if (candidates.length === 0) return 0;
  const senderIds = [...new Set(candidates.map((c) => c.sender.id))];
  const configs = await tx.$queryRawUnsafe<({ id: string } & KeywordConfig)[]>(
    `SELECT "id", "optOutKeywords", "optInKeywords" FROM "Sender" WHERE "id" = ANY($1::text[])`,
    senderIds,
  );
  const configOf = new Map(configs.map((c) => [c.id, c]));
  let applied = 0;
  // In time order, so that "STOP" then "START" in one batch ends opted in.
  for (const m of candidates.sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const config = configOf.get(m.sender.id);
    const action = config ? keywordAction(m.text, config) : null;
    if (!action) continue;
    applied += 1;
    const keyword = normalizeKeyword(m.text);
    let changed: number;
    if (action === "opt-out") {
      changed = await tx.$executeRawUnsafe(
        `INSERT INTO "BlacklistEntry" ("id", "customerId", "senderId", "phoneNumber", "reason", "source",
           "inboundMessageId", "createdAt")
         VALUES ($1, $2, $3, $4, 'opt-out', 'opt-out', $5, $6::timestamp(3))
         ON CONFLICT ("senderId", "phoneNumber") DO NOTHING`,
        newThreadMessageUid().replace("cmsg_", "bl_"),
        m.sender.customerId,
        m.sender.id,
        m.contact,
        m.id,
        m.at.toISOString(),
      );
    } else {
      changed = await tx.$executeRawUnsafe(
        `DELETE FROM "BlacklistEntry" WHERE "senderId" = $1 AND "phoneNumber" = $2 AND "customerId" = $3
           AND "source" = 'opt-out'`,
        m.sender.id,
        m.contact,
        m.sender.customerId,
      );
    }
    // The contact's keyword changed the blacklist: the system's change (docs/security.md "Audit log").
    if (changed > 0) {
      await recordAudit(tx, {
        ...auditContext(systemPrincipal(m.sender.customerId)),
        action: action === "opt-out" ? "blacklist.added" : "blacklist.removed",
        target: { type: "blacklist_entry", uid: m.contact },
        details: { senderId: m.sender.id, senderPhoneNumber: m.sender.phoneNumber, source: "opt-out", keyword },
      });
    }
    const body =
      action === "opt-out"
        ? `The contact opted out (${keyword}): added to this sender's blacklist; sends to them are refused`
        : `The contact opted in again (${keyword}): removed from this sender's blacklist`;
    // The note sorts right after the message that caused it: after its place in the thread, which
    // for a message processed after its second is that second's last moment, possibly later than
    // this transaction's start (lib/ingest/thread-time.ts).
    await tx.$executeRawUnsafe(
      `INSERT INTO "ConversationMessage" ("id", "customerId", "conversationId", "direction", "type", "content",
         "sentBy", "createdAt")
       VALUES ($1, $2, $3, 'system', 'system', $4::jsonb, 'system',
         GREATEST($5::timestamp(3) + interval '1 millisecond', ${NOW_UTC}))`,
      newThreadMessageUid(),
      m.sender.customerId,
      m.conversationId,
      JSON.stringify({
        system: { event: action === "opt-out" ? "opt_out" : "opt_in", keyword, body, inboundMessageId: m.id },
      }),
      m.threadAt.toISOString(),
    );
  }
  return applied;
}
