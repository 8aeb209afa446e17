// Reactions (docs/messaging.md "Reactions"): a reaction attaches to the thread entry it reacts
// to, kept on the entry as `reactions [{by, emoji, at}]` with the latest per side (the contact's,
// the business's). A removal (an empty emoji) is kept as emoji "" so that an older reaction
// arriving later does not bring it back; it is never shown. The change is one statement that
// reads and writes the entry's row under its lock, so both sides may react at once.
import { Prisma } from "@/lib/generated/prisma/client";
import { PREVIEW_MAX } from "./content";
import { REACTION_SIDES } from "./schemas";

export type ReactionSide = (typeof REACTION_SIDES)[number];
export type Reaction = { by: ReactionSide; emoji: string; at: string };

/** The provider refuses a reaction to a message older than this (REACTION_TOO_OLD). */
export const REACTION_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

export type ReactionChange = { entryId: string; customerId: string; by: ReactionSide; emoji: string; at: Date };

/**
 * Sets one side's reaction on an entry of the customer: replaces that side's (or removes it
 * with ""), unless that side already reacted in a later second (reactions may arrive out of
 * order). Seconds, as the provider stamps them: within one, the later arrival wins.
 */
export function setReactionSql(c: ReactionChange): Prisma.Sql {
  const at = c.at.toISOString();
  const mine = Prisma.sql`jsonb_array_elements(COALESCE("reactions", '[]'::jsonb))`;
  return Prisma.sql`UPDATE "ConversationMessage" SET "reactions" = (
      SELECT jsonb_agg(r ORDER BY r->>'at') FROM (
        SELECT r FROM ${mine} AS r WHERE r->>'by' <> ${c.by}
        UNION ALL SELECT jsonb_build_object('by', ${c.by}::text, 'emoji', ${c.emoji}::text, 'at', ${at}::text)
      ) s(r))
    WHERE "id" = ${c.entryId} AND "customerId" = ${c.customerId}
      AND NOT EXISTS (SELECT 1 FROM ${mine} AS o
        WHERE o->>'by' = ${c.by} AND left(o->>'at', 19) > left(${at}::text, 19))`;
}

/** The shown reactions of an entry (its stored column): removals left out, oldest first. */
export function shownReactions(stored: unknown): Reaction[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .filter(
      (r): r is Reaction =>
        typeof r === "object" &&
        r !== null &&
        (REACTION_SIDES as readonly unknown[]).includes(r.by) &&
        typeof r.emoji === "string" &&
        r.emoji !== "" &&
        typeof r.at === "string",
    )
    .map((r) => ({ by: r.by, emoji: r.emoji, at: r.at }));
}

/** The list's preview of a reaction: "Reacted 👍 to: <the message's preview>". */
export function reactionPreview(emoji: string, target: string | null): string {
  const head = emoji === "" ? "Removed a reaction" : `Reacted ${emoji}`;
  const text = target ? `${head} to: ${target}` : head;
  return text.length <= PREVIEW_MAX ? text : `${text.slice(0, PREVIEW_MAX - 1)}…`;
}

/** The provider id a reaction callback names (`reaction.message_id`), if any. */
export function reactedProviderId(type: string, body: Record<string, unknown>): string | null {
  if (type !== "reaction") return null;
  const id = (body.reaction as { message_id?: unknown } | undefined)?.message_id;
  return typeof id === "string" && id !== "" ? id : null;
}

/** The emoji of a reaction callback ("" removes). */
export function reactionEmoji(body: Record<string, unknown>): string {
  const emoji = (body.reaction as { emoji?: unknown } | undefined)?.emoji;
  return typeof emoji === "string" ? emoji : "";
}

/**
 * A thread SQL condition: the entries shown as lines. A reaction that attached to its message
 * (an inbound one that resolved, every outbound one) shows on that message instead.
 */
export const SHOWN_AS_LINE = Prisma.sql`NOT (e."type" = 'reaction'
  AND (e."direction" = 'outbound' OR e."replyTo"->>'messageId' IS NOT NULL))`;
