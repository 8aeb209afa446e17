// One zod module for media (docs/media.md "API"): the upload form, the content query, the
// public shape and the provider-shaped ones. The API router, the OpenAPI document and the
// dashboard use these.
import { z } from "zod";
import { PublicId } from "@/lib/core/path-params";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { MEDIA_KINDS } from "./kinds";
import type { StagedFile } from "./staging";

export const MEDIA_STATUSES = ["ready", "pending", "unavailable", "expired"] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/** What newMediaId issues (lib/domains/media/service.ts). */
export const MEDIA_ID_PATTERN = /med_[0-9a-f]{32}/;
export const MediaId = PublicId.describe("A media id this service issued (med_…)");

/** The file part of an upload: the router streams it into staging (lib/api/router.ts, `upload`). */
export const UploadedFile = z
  .custom<StagedFile>((v) => typeof v === "object" && v !== null && "sha256" in v, "file is required")
  .meta({ type: "string", format: "binary", description: "The file (at most one part named file)" });

/** POST /media (multipart/form-data) and the provider's POST /{phoneNumberId}/media. */
export const MediaUploadForm = z.object({
  file: UploadedFile,
  type: z
    .string()
    .max(255)
    .optional()
    .describe("The MIME type the client knows the file as; refused when the bytes are another type"),
  senderId: z
    .string()
    .max(64)
    .optional()
    .describe("Sender phone number the file belongs to; omitted: the token's or default sender"),
  messaging_product: z.literal("whatsapp").optional().describe("Provider SDKs send it; nothing else is accepted"),
});
export type MediaUploadInput = z.infer<typeof MediaUploadForm>;

/** GET /media/{mediaId}/content: a signed link's parameters (GET /{mediaId} of the provider mount hands them out). */
export const MediaContentQuery = z.object({
  expires: z.coerce.number().int().positive().optional().describe("A signed link's expiry (Unix seconds)"),
  signature: z.string().max(128).optional().describe("A signed link's signature"),
});

/** GET /{mediaId} and DELETE /{mediaId} of the provider mount: the SDKs name the number too. */
export const ProviderMediaQuery = z.object({
  phone_number_id: z
    .string()
    .max(64)
    .optional()
    .describe("Accepted as the provider's SDKs send it; the media's own sender decides"),
});

export const PublicMedia = z
  .object({
    mediaId: z.string(),
    kind: z.enum(MEDIA_KINDS),
    mimeType: z.string(),
    sha256: z.string().nullable().describe("Hex SHA-256 of the bytes; a pending inbound file's is the provider's"),
    fileSize: z.number().int().nullable().describe("Bytes; null while an inbound file is pending"),
    filename: z.string().nullable(),
    source: z.enum(["upload", "inbound"]),
    status: z.enum(MEDIA_STATUSES),
    unavailableReason: z.string().nullable().describe("Why an inbound file could not be fetched"),
    senderId: z.string().nullable().describe("The sender's phone number"),
    createdAt: isoTimestamp(),
    expiresAt: isoTimestamp().describe("When the file is deleted (MEDIA_RETENTION_DAYS)"),
  })
  .meta({ id: "Media" });
export type PublicMediaT = z.infer<typeof PublicMedia>;

/**
 * The file of a media message, as thread entries (GET /conversations/{uid}/messages), events
 * and reports carry it (docs/media.md "Inbound media"). A deleted file is `unavailable`.
 * Unnamed for the events' schemas (the webhooks section inlines them); MessageMedia is the API's component.
 */
export const MessageMediaFacts = z.object({
  mediaId: z.string().describe("The file's id: GET /media/{mediaId}/content serves it once ready"),
  kind: z.enum(MEDIA_KINDS),
  mimeType: z.string(),
  sha256: z.string().nullable().describe("Hex SHA-256; a pending inbound file's is the one the provider announced"),
  fileSize: z.number().int().nullable().describe("Bytes; null while an inbound file is pending"),
  filename: z.string().optional().describe("A document's name, when it has one"),
  caption: z.string().optional().describe("The caption sent with it, when there is one"),
  status: z
    .enum(MEDIA_STATUSES)
    .describe("pending (an inbound file not fetched yet), ready, unavailable (see unavailableReason), expired"),
  unavailableReason: z.string().optional().describe("Why the file is unavailable"),
});
export const MessageMedia = MessageMediaFacts.meta({ id: "MessageMedia" });
export type MessageMediaT = z.infer<typeof MessageMediaFacts>;

export const MediaDeleted = z.object({ mediaId: z.string(), deleted: z.literal(true) }).meta({ id: "MediaDeleted" });

/** The provider's upload answer. */
export const ProviderMediaUploaded = z.object({ id: z.string() }).meta({ id: "ProviderMediaUploaded" });

/** The provider's media description: `url` is a link to the content valid 5 minutes (it still needs the token). */
export const ProviderMediaInfo = z
  .object({
    messaging_product: z.literal("whatsapp"),
    url: z.string(),
    mime_type: z.string(),
    sha256: z.string(),
    file_size: z.string().describe("Bytes, as a string (the provider's type)"),
    id: z.string(),
  })
  .meta({ id: "ProviderMediaInfo" });
export type ProviderMediaInfoT = z.infer<typeof ProviderMediaInfo>;

export const ProviderSuccess = z.object({ success: z.literal(true) });
