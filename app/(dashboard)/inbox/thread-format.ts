// Pure helpers of the inbox thread: day separators, the window's remaining time, the
// status ticks and who sent a message. Dates in UTC, as everywhere in the dashboard.
import type { PublicConversationMessage } from "@/lib/domains/conversations/schemas";

export type ThreadItem =
  | { kind: "day"; key: string; label: string }
  | { kind: "message"; key: string; message: PublicConversationMessage };

/** "2026-11-23" -> "Today" / "Yesterday" / "Mon, 23 Nov 2026" (UTC days). */
export function dayLabel(iso: string, now = Date.now()): string {
  const day = iso.slice(0, 10);
  const today = new Date(now).toISOString().slice(0, 10);
  const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10);
  if (day === today) return "Today";
  if (day === yesterday) return "Yesterday";
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    timeZone: "UTC",
  });
}

/** Messages (oldest first) with a separator before the first message of each UTC day. */
export function withDaySeparators(messages: PublicConversationMessage[], now = Date.now()): ThreadItem[] {
  const items: ThreadItem[] = [];
  let last = "";
  for (const m of messages) {
    const day = m.timestamp.slice(0, 10);
    if (day !== last) {
      items.push({ kind: "day", key: `day-${day}`, label: dayLabel(m.timestamp, now) });
      last = day;
    }
    items.push({ kind: "message", key: m.messageUid, message: m });
  }
  return items;
}

/** "23 h 59 min left", "12 min left", "Closed" / "Not open (the contact never wrote)". */
export function windowRemaining(windowExpiresAt: string | null, now = Date.now()): string {
  if (!windowExpiresAt) return "Not open: the contact has not written yet";
  const ms = new Date(windowExpiresAt).getTime() - now;
  if (ms <= 0) return "Closed";
  const minutes = Math.ceil(ms / 60_000);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return h > 0 ? `${h} h ${m} min left` : `${m} min left`;
}

export const isWindowOpen = (windowExpiresAt: string | null, now = Date.now()) =>
  windowExpiresAt !== null && new Date(windowExpiresAt).getTime() > now;

/** The tick marks of an outbound status and the words a screen reader says for them. */
export function ticksOf(status: string): { marks: string; label: string; tone: "muted" | "read" | "failed" } {
  switch (status) {
    case "read":
      return { marks: "✓✓", label: "Read", tone: "read" };
    case "delivered":
      return { marks: "✓✓", label: "Delivered", tone: "muted" };
    case "sent":
      return { marks: "✓", label: "Sent", tone: "muted" };
    case "failed":
      return { marks: "!", label: "Failed", tone: "failed" };
    default:
      return { marks: "◷", label: status === "queued" ? "Queued" : "Pending", tone: "muted" };
  }
}

/** Who sent it: the contact, the API, a dashboard user's email, a chatbot's name. */
export function senderLabel(m: Pick<PublicConversationMessage, "sentBy" | "sentByLabel">): string {
  switch (m.sentBy) {
    case "contact":
      return "Contact";
    case "api":
      return "API";
    case "dashboard":
      return m.sentByLabel ?? "Dashboard";
    case "chatbot":
      return m.sentByLabel ? `Chatbot ${m.sentByLabel}` : "Chatbot";
    default:
      return "System";
  }
}

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** The text a bubble shows for a message's content. */
export function bubbleText(m: Pick<PublicConversationMessage, "type" | "content">): string {
  const part = (m.content[m.type] ?? {}) as Obj;
  switch (m.type) {
    case "text":
    case "system":
      return str(part.body) ?? "";
    case "template": {
      const lang = (part.language as Obj | undefined)?.code ?? part.language;
      return `Template ${str(part.name) ?? ""}${typeof lang === "string" ? ` (${lang})` : ""}`;
    }
    case "image":
    case "video":
    case "document":
    case "audio":
    case "sticker":
      return [`[${m.type}]`, str(part.caption) ?? str(part.filename)].filter(Boolean).join(" ");
    case "location":
      return `[location] ${[str(part.name), str(part.address)].filter(Boolean).join(", ")}`.trim();
    case "button":
      return str(part.text) ?? "[button]";
    case "interactive": {
      const reply = (part.button_reply ?? part.list_reply) as Obj | undefined;
      return str(reply?.title) ?? str((part.body as Obj | undefined)?.text) ?? "[interactive]";
    }
    case "reaction":
      return `Reacted ${str(part.emoji) ?? ""}`.trim();
    default:
      return `[${m.type}]`;
  }
}

/** HH:MM in UTC. */
export const timeOf = (iso: string) => iso.slice(11, 16);
