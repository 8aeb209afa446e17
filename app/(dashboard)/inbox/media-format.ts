// Pure helpers of the thread's files (docs/inbox.md "Media"): a message's file as the thread
// entry carries it, its size in words, what a screen reader says for an image, and the words
// for a file that is not there (yet, or any more).
import type { PublicConversationMessage } from "@/lib/domains/conversations/schemas";
import { formatFileSize } from "@/lib/domains/media/kinds";

/** A thread entry's file (GET /conversations/{uid}/messages `media`, docs/media.md). */
export type ThreadMedia = NonNullable<PublicConversationMessage["media"]>;

/** The entry's file, or null for a message without one. */
export const mediaOf = (m: Pick<PublicConversationMessage, "media">): ThreadMedia | null => m.media ?? null;

/** Where the dashboard reads a file's bytes (the member's session: app/api/dashboard/media). */
export const contentUrl = (mediaId: string) => `/api/dashboard/media/${encodeURIComponent(mediaId)}/content`;

/** 900 bytes, 12 KB, 1.5 MB: the words the API's refusals use too (lib/domains/media/kinds.ts). */
export { formatFileSize };

const KIND_WORD: Record<ThreadMedia["kind"], string> = {
  image: "Photo",
  video: "Video",
  audio: "Audio",
  document: "Document",
  sticker: "Sticker",
};

/** "Photo", "Voice note", "Document": what a file is, in a word. */
export const kindLabel = (kind: ThreadMedia["kind"], voice = false) =>
  kind === "audio" && voice ? "Voice note" : KIND_WORD[kind];

/** An image's alt text: its caption when it has one, else what it is and who sent it. */
export function altText(media: Pick<ThreadMedia, "kind" | "caption" | "filename">, outbound: boolean): string {
  if (media.caption) return media.caption;
  const what = kindLabel(media.kind);
  return `${what} ${outbound ? "sent to the contact" : "from the contact"}${media.filename ? ` (${media.filename})` : ""}`;
}

/** A voice note (the provider's `audio.voice`), played in place like any audio. */
export function isVoiceNote(m: { type: string; content: Record<string, unknown> }): boolean {
  return m.type === "audio" && (m.content.audio as { voice?: unknown } | undefined)?.voice === true;
}

/** The words for a file not (or no longer) shown; null when it is ready. */
export function absentFileText(media: Pick<ThreadMedia, "kind" | "status" | "unavailableReason">, voice = false) {
  const what = kindLabel(media.kind, voice).toLowerCase();
  switch (media.status) {
    case "pending":
      return `Receiving the ${what}…`;
    case "unavailable":
      return `This ${what} is unavailable${media.unavailableReason ? `: ${media.unavailableReason}` : ""}`;
    case "expired":
      return `This ${what} has expired: files are kept for the retention period, then deleted`;
    default:
      return null;
  }
}

/** A document's type in a word (PDF, Word, ...), for its card. */
export function documentType(mimeType: string): string {
  if (mimeType === "application/pdf") return "PDF";
  if (mimeType === "text/plain") return "Text";
  if (/word/.test(mimeType)) return "Word";
  if (/excel|spreadsheet/.test(mimeType)) return "Excel";
  if (/powerpoint|presentation/.test(mimeType)) return "PowerPoint";
  return "File";
}
