// `simulate:inbound`: a contact writes to a sender, or sends a file, as the provider would
// post it: a signed callback accepted as the provider endpoint accepts it
// (lib/domains/provider/callbacks/accept.ts, or over HTTP when SIMULATOR_CALLBACK_URL is set),
// then applied by the callback processor. A file (`--media`) is kept by the simulator, which
// serves it as the provider does, and the callback announces its provider id and sha256: the
// whole inbound path runs (docs/media.md "Simulator and CLI"). When no app runs a processor
// or a media worker (the CLI alone), the pending callbacks are processed and the file fetched
// here: both claim with SKIP LOCKED, so running beside an app's workers is safe.
import fs from "node:fs";
import path from "node:path";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { DETECTION_BYTES, detectType } from "@/lib/domains/media/detect";
import { fetchDueMedia } from "@/lib/domains/media/fetch-worker";
import { LARGEST_MEDIA_BYTES } from "@/lib/domains/media/kinds";
import type { MessageMediaT } from "@/lib/domains/media/schemas";
import { toMessageMedia } from "@/lib/domains/media/serializers";
import type { CallbackChange } from "@/lib/domains/provider/simulator-callbacks";
import { envelopeFor, postCallback } from "@/lib/domains/provider/simulator-callbacks";
import {
  inboundMediaChange,
  inboundReactionChange,
  inboundReplyChange,
  inboundTextChange,
  inboundWamid,
} from "@/lib/domains/provider/simulator-inbound";
import { keepContactMedia } from "@/lib/domains/provider/simulator-media";
import type { ProviderSender } from "@/lib/domains/provider/types";
import { normalizePhone } from "@/lib/domains/senders/service";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";

export type SimulatedInbound = {
  messageId: string;
  senderId: string;
  from: string;
  conversationUid: string | null;
  status: number;
  /** A file sent: as its thread entry shows it once fetched (or still pending after the wait). */
  media?: MessageMediaT;
};

const WAIT_MS = 15_000;
const pause = () => new Promise((r) => setTimeout(r, 50));

/** The file as the contact's phone would send it: its type from its bytes, kept by the simulator. */
async function contactFile(
  sender: ProviderSender,
  input: { from: string; id: string; name?: string; media: string; caption?: string; voice?: boolean },
): Promise<CallbackChange> {
  const stat = await fs.promises.stat(input.media).catch(() => null);
  if (!stat?.isFile())
    throw new ApiError("VALIDATION_FAILED", `No file ${input.media}`, { fields: { media: "no such file" } });
  if (stat.size > LARGEST_MEDIA_BYTES) {
    throw new ApiError("MEDIA_TOO_LARGE", `The file is larger than ${LARGEST_MEDIA_BYTES / 1_000_000} MB`, {
      maxBytes: LARGEST_MEDIA_BYTES,
    });
  }
  const bytes = await fs.promises.readFile(input.media);
  const filename = path.basename(input.media);
  const type = await detectType(bytes.subarray(0, DETECTION_BYTES), { filename });
  if (input.voice && type.kind !== "audio") {
    throw new ApiError("VALIDATION_FAILED", `--voice needs an audio file; ${filename} is ${type.mimeType}`, {
      fields: { voice: "needs an audio file" },
    });
  }
  const kept = await keepContactMedia(bytes, type.mimeType);
  // The provider carries a caption on images, videos and documents only, and a document's name.
  const captioned = type.kind === "image" || type.kind === "video" || type.kind === "document";
  return inboundMediaChange(sender, {
    from: input.from,
    id: input.id,
    name: input.name,
    kind: type.kind,
    media: {
      id: kept.id,
      mime_type: type.mimeType,
      sha256: kept.sha256,
      ...(captioned && input.caption ? { caption: input.caption } : {}),
      ...(type.kind === "document" ? { filename } : {}),
      ...(input.voice ? { voice: true } : {}),
    },
  });
}

/** The reply of a tap on a button or a pick of a list row (the provider's `button_reply` / `list_reply`). */
function tapOf(input: {
  buttonId?: string;
  buttonTitle?: string;
  listRowId?: string;
  listRowTitle?: string;
  listRowDescription?: string;
}) {
  if (input.buttonId)
    return { type: "button_reply" as const, id: input.buttonId, title: input.buttonTitle ?? input.buttonId };
  const id = input.listRowId ?? "";
  const description = input.listRowDescription;
  return { type: "list_reply" as const, id, title: input.listRowTitle ?? id, ...(description ? { description } : {}) };
}

export async function simulateInbound(input: {
  sender: string;
  from: string;
  text?: string;
  media?: string;
  caption?: string;
  /** The file (audio) is a voice note. */
  voice?: boolean;
  name?: string;
  /** A tap on the reply button `buttonId` titled `buttonTitle` of the message `context`. */
  buttonId?: string;
  buttonTitle?: string;
  /** A pick of the list row `listRowId` titled `listRowTitle` of the message `context`. */
  listRowId?: string;
  listRowTitle?: string;
  listRowDescription?: string;
  /** A reaction to the message `context` ("" removes the contact's). */
  reaction?: string;
  /** The provider id of the message answered: quoted by a text, tapped, or reacted to. */
  context?: string;
}): Promise<SimulatedInbound> {
  const phone = normalizePhone(input.sender);
  const sender = await db.sender.findUnique({ where: { phoneNumber: phone } });
  if (!sender) throw new ApiError("SENDER_NOT_FOUND", `No sender ${phone}`);
  if (!sender.phoneNumberId) {
    throw new ApiError("WHATSAPP_SETUP_INCOMPLETE", `Sender ${phone} has no provider phone number id`);
  }
  const from = normalizePhone(input.from);
  const id = inboundWamid();
  const provider = { phoneNumberId: sender.phoneNumberId, phoneNumber: sender.phoneNumber, wabaId: sender.wabaId };
  const { name, context } = input;
  const change = input.media
    ? await contactFile(provider, { from, id, name, media: input.media, caption: input.caption, voice: input.voice })
    : input.reaction !== undefined && context
      ? inboundReactionChange(provider, { from, id, name, messageId: context, emoji: input.reaction })
      : input.buttonId || input.listRowId
        ? inboundReplyChange(provider, { from, id, name, context, reply: tapOf(input) })
        : inboundTextChange(provider, { from, text: input.text ?? "", name, id, context });
  const status = await postCallback(envelopeFor([change]));
  if (status !== 200) throw new ApiError("REQUEST_FAILED", `The provider endpoint answered ${status}`);
  // Applied by a running app within moments; otherwise (or to be sure) here.
  const until = Date.now() + WAIT_MS;
  let stored = await db.conversationMessage.findUnique({ where: { providerMessageId: id } });
  while (!stored && Date.now() < until) {
    if ((await processPendingCallbacks(100)).callbacks === 0) await pause();
    stored = await db.conversationMessage.findUnique({ where: { providerMessageId: id } });
  }
  const result: SimulatedInbound = {
    messageId: id,
    senderId: phone,
    from,
    conversationUid: stored?.conversationId ?? null,
    status,
  };
  if (!stored?.mediaId) return result;
  // The file: fetched by a running app's media worker, or here.
  const mediaId = stored.mediaId;
  const media = async () => db.media.findUniqueOrThrow({ where: { id: mediaId } });
  let row = await media();
  while (row.status === "pending" && Date.now() < until) {
    if ((await fetchDueMedia({ customerIds: [sender.customerId] })).claimed === 0) await pause();
    row = await media();
  }
  const caption = (change.value.messages as { [k: string]: { caption?: string } }[] | undefined)?.[0]?.[row.kind]
    ?.caption;
  return {
    ...result,
    media: toMessageMedia(
      {
        mediaId: row.id,
        mediaKind: row.kind,
        mediaMimeType: row.mimeType,
        mediaSha256: row.sha256,
        mediaFileSize: row.fileSize,
        mediaFilename: row.filename,
        mediaStatus: row.status,
        mediaUnavailableReason: row.unavailableReason,
      },
      caption,
    ),
  };
}
