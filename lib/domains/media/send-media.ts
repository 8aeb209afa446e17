// Sends that name a file by its mediaId (docs/media.md "Sending media"): a media message's
// `image|video|audio|document|sticker: {id}`, a template's media header parameter
// `{type: "image", image: {id}}` and an interactive message's media header. The send's checks find the file before anything is sent or
// billed: of the principal's account and senders (else MEDIA_NOT_FOUND), ready (else
// MEDIA_NOT_READY), of the kind the message sends (else MEDIA_TYPE_NOT_SUPPORTED). The stored
// payload keeps our mediaId; the provider's id replaces it only in the call (provider-media.ts).
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { allowedSenderIds, type Principal } from "@/lib/domains/auth/principal";
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import { Prisma } from "@/lib/generated/prisma/client";
import { MEDIA_KINDS, type MediaKind } from "./kinds";
import { mediaNotFound } from "./service";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const isKind = (v: unknown): v is MediaKind => typeof v === "string" && (MEDIA_KINDS as readonly string[]).includes(v);

/** Where a payload names a file by id: the object holding `id`, and the kind it sends. */
type NamedMedia = { id: string; kind: MediaKind; part: Obj };

/** The file a payload names by id (a media part's, a template header parameter's), or null: a send names at most one. */
function namedMedia(payload: ProviderMessagePayload): NamedMedia | null {
  const part = payload[payload.type];
  if (isKind(payload.type) && isObj(part) && part.id !== undefined) {
    return { id: String(part.id), kind: payload.type, part };
  }
  // An interactive message's media header: {type: "image", image: {id}}.
  const header = payload.type === "interactive" && isObj(payload.interactive) ? payload.interactive.header : undefined;
  if (isObj(header) && isKind(header.type) && isObj(header[header.type])) {
    const value = header[header.type] as Obj;
    return value.id === undefined ? null : { id: String(value.id), kind: header.type, part: value };
  }
  if (payload.type !== "template" || !isObj(payload.template)) return null;
  const components = payload.template.components;
  for (const c of Array.isArray(components) ? components : []) {
    for (const p of isObj(c) && Array.isArray(c.parameters) ? c.parameters : []) {
      const value = isObj(p) && isKind(p.type) ? p[p.type] : undefined;
      if (isObj(p) && isKind(p.type) && isObj(value) && value.id !== undefined) {
        return { id: String(value.id), kind: p.type, part: value };
      }
    }
  }
  return null;
}

/** The payload with the provider's id in place of our mediaId (a copy; the stored payload keeps ours). */
export function withProviderMediaId(payload: ProviderMessagePayload, providerMediaId: string): ProviderMessagePayload {
  const copy = structuredClone(payload);
  const named = namedMedia(copy);
  if (named) named.part.id = providerMediaId;
  return copy;
}

/** The facts of a file a send names, as its message, thread entry and events carry them. */
export type SendMedia = {
  mediaId: string;
  kind: MediaKind;
  mimeType: string;
  sha256: string;
  fileSize: number;
  filename: string | null;
};

type FoundRow = {
  id: string;
  kind: string;
  mimeType: string;
  sha256: string | null;
  fileSize: number | null;
  filename: string | null;
  status: string;
};

/**
 * The send check (lib/domains/messaging/send-checks.ts): per payload, null when it names no
 * file, its file when the principal may send it, else the refusal. One read for a batch.
 */
export async function sendMediaVerdicts(
  p: Principal,
  payloads: readonly ProviderMessagePayload[],
): Promise<({ ok: true; media: SendMedia } | { ok: false; refusal: ApiError } | null)[]> {
  const named = payloads.map(namedMedia);
  const ids = [...new Set(named.flatMap((n) => (n ? [n.id] : [])))];
  if (ids.length === 0) return named.map(() => null);
  const allowed = allowedSenderIds(p);
  const rows = await db.$queryRaw<FoundRow[]>`
    SELECT m."id", m."kind", m."mimeType", m."sha256", m."fileSize", m."filename", m."status" FROM "Media" m
    WHERE m."id" = ANY(${ids}::text[]) AND m."customerId" = ${p.customerId}
      AND m."status" IN ('ready', 'pending', 'unavailable', 'expired')
      AND ${allowed === null ? Prisma.sql`TRUE` : Prisma.sql`m."senderId" = ANY(${[...allowed]}::text[])`}`;
  const byId = new Map(rows.map((r) => [r.id, r]));
  return named.map((n) => (n ? verdictOf(n, byId.get(n.id)) : null));
}

/**
 * A file a broadcast's media header names (lib/domains/broadcasts): the same refusals as a
 * send's, thrown when the broadcast is saved or started rather than for each recipient.
 */
export async function assertSendableMedia(p: Principal, mediaId: string, kind: MediaKind): Promise<SendMedia> {
  const payload = { messaging_product: "whatsapp" as const, to: "", type: kind, [kind]: { id: mediaId } };
  const [verdict] = await sendMediaVerdicts(p, [payload]);
  if (!verdict) throw mediaNotFound(mediaId);
  if (!verdict.ok) throw verdict.refusal;
  return verdict.media;
}

function verdictOf(
  n: NamedMedia,
  row: FoundRow | undefined,
): { ok: true; media: SendMedia } | { ok: false; refusal: ApiError } {
  if (!row) return { ok: false, refusal: mediaNotFound(n.id) };
  if (row.status !== "ready" || !row.sha256 || row.fileSize === null) {
    const refusal = new ApiError("MEDIA_NOT_READY", `Media ${row.id} is ${row.status}, not ready to send`, {
      mediaId: row.id,
      status: row.status,
    });
    return { ok: false, refusal };
  }
  if (row.kind !== n.kind) {
    const refusal = new ApiError(
      "MEDIA_TYPE_NOT_SUPPORTED",
      `Media ${row.id} is ${article(row.kind)} ${row.kind} (${row.mimeType}); ${article(n.kind)} ${n.kind} send needs ${article(n.kind)} ${n.kind}`,
      { mediaId: row.id, kind: row.kind, expected: n.kind },
    );
    return { ok: false, refusal };
  }
  const media: SendMedia = {
    mediaId: row.id,
    kind: row.kind as MediaKind,
    mimeType: row.mimeType,
    sha256: row.sha256,
    fileSize: row.fileSize,
    filename: row.filename,
  };
  return { ok: true, media };
}

const article = (word: string) => (/^[aeiou]/.test(word) ? "an" : "a");
