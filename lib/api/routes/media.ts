// Media (docs/media.md "API"): uploads (multipart, streamed: the `upload` of the route
// definition), a file's facts, its bytes, its deletion; and the provider-shaped media routes
// stock SDKs call under the provider mount (POST /{phoneNumberId}/media, GET and DELETE
// /{mediaId}). Thin: the router reads, the media service decides.
import { ApiError } from "@/lib/core/errors";
import { PathText } from "@/lib/core/path-params";
import { type ContentRequest, openContent } from "@/lib/domains/media/content";
import * as examples from "@/lib/domains/media/examples";
import { LARGEST_MEDIA_BYTES } from "@/lib/domains/media/kinds";
import {
  MediaContentQuery,
  MediaDeleted,
  MediaId,
  MediaUploadForm,
  ProviderMediaUploaded,
  PublicMedia,
} from "@/lib/domains/media/schemas";
import { toPublicMedia } from "@/lib/domains/media/serializers";
import { deleteMedia, getMedia, receiveUpload, storeUpload } from "@/lib/domains/media/service";
import { fileResponse } from "../file-response";
import { type AnyRoute, ok, route } from "../route-definition";

/** An upload reads at most the largest file and its multipart overhead (the form's parts and fields). */
const upload = { field: "file", maxBytes: LARGEST_MEDIA_BYTES + 64 * 1024, receive: receiveUpload } as const;

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  tag: "Media",
  tokenScope: "any",
  feature: "messaging",
} as const;

const UPLOAD_ERRORS = ["MEDIA_TYPE_NOT_SUPPORTED", "MEDIA_TOO_LARGE", "MEDIA_QUOTA_EXCEEDED"] as const;

const contentRequest = (request: Request, signed: ContentRequest["signed"]): ContentRequest => ({
  range: request.headers.get("range"),
  ifNoneMatch: request.headers.get("if-none-match"),
  ifRange: request.headers.get("if-range"),
  head: request.method === "HEAD",
  signed,
});

export const mediaRoutes: AnyRoute[] = [
  // POST /media: a file, multipart/form-data, streamed; refused before anything is stored.
  route({
    ...common,
    method: "POST",
    path: "/media",
    permission: "messages.send",
    summary: "Upload a file",
    description:
      "multipart/form-data with one part `file` (and optionally `type`, `senderId`); the token in the Authorization header. The type is taken from the bytes; each kind has the provider's limit (images 5 MB, video and audio 16 MB, documents 100 MB, stickers 100 KB, animated 500 KB).",
    sender: "resolve",
    senderOptions: { requireSetup: false },
    upload,
    body: MediaUploadForm,
    response: PublicMedia,
    successStatus: 201,
    errors: UPLOAD_ERRORS,
    example: examples.postMedia,
    // The reply box's attachment too (docs/media.md "Inbox"), sent with XMLHttpRequest for its
    // progress: a member whose role reads the inbox, for a sender they work on, named.
    session: true,
    sessionPermission: "inbox",
    handler: async ({ principal, sender, body }) => {
      if (principal.via === "session" && !body.senderId) {
        throw new ApiError("VALIDATION_FAILED", "Name the sender the file is for (senderId)");
      }
      return { ...ok("Media stored", toPublicMedia(await storeUpload(principal, sender, body))), status: 201 };
    },
  }),
  // GET /media/{mediaId}: the file's facts and status.
  route({
    ...common,
    method: "GET",
    path: "/media/:mediaId",
    permission: "messages.read",
    params: { mediaId: MediaId },
    paramNotFound: { mediaId: "MEDIA_NOT_FOUND" },
    summary: "Get a file's facts",
    description: "Kind, type, size, sha256 and status (an inbound file is pending until it is fetched).",
    response: PublicMedia,
    errors: ["MEDIA_NOT_FOUND"],
    example: examples.getMedia,
    handler: async ({ principal, params }) =>
      ok("Media retrieved", toPublicMedia(await getMedia(principal, params.mediaId))),
  }),
  // GET /media/{mediaId}/content: the bytes (Range, ETag, nosniff).
  route({
    ...common,
    method: "GET",
    path: "/media/:mediaId/content",
    permission: "messages.read",
    params: { mediaId: MediaId },
    paramNotFound: { mediaId: "MEDIA_NOT_FOUND" },
    query: MediaContentQuery,
    summary: "Download a file",
    description:
      "The bytes, with Content-Type, ETag (the sha256), Content-Disposition (attachment for documents), X-Content-Type-Options: nosniff and Cache-Control: private; one Range gives 206. A file not ready is 409 MEDIA_NOT_READY.",
    fileAnswer: true,
    errors: ["MEDIA_NOT_FOUND", "MEDIA_NOT_READY", "RANGE_NOT_SATISFIABLE"],
    example: examples.getMediaContent,
    // The inbox's <img src>, players and downloads too (docs/media.md "Inbox"): a member whose
    // role reads the inbox (agents: their senders' files). Signed links are the API's alone.
    session: true,
    sessionPermission: "inbox",
    handler: async ({ principal, params, query, request }) => {
      const signed = principal.via === "session" ? undefined : query;
      const answer = await openContent(principal, params.mediaId, contentRequest(request, signed));
      return fileResponse(answer.status, answer.headers, answer.body);
    },
  }),
  // DELETE /media/{mediaId}: the file goes; messages that sent it keep its facts.
  route({
    ...common,
    method: "DELETE",
    path: "/media/:mediaId",
    permission: "messages.send",
    params: { mediaId: MediaId },
    paramNotFound: { mediaId: "MEDIA_NOT_FOUND" },
    summary: "Delete a file",
    description:
      "Deletes the file (when no other record of the account holds the same bytes); sent messages keep its facts.",
    response: MediaDeleted,
    errors: ["MEDIA_NOT_FOUND"],
    example: examples.deleteMedia,
    handler: async ({ principal, params }) => {
      await deleteMedia(principal, params.mediaId);
      return ok("Media deleted", { mediaId: params.mediaId, deleted: true });
    },
  }),
  // POST /{phoneNumberId}/media: the provider's upload, for stock SDKs; answers {id} (our mediaId).
  route({
    ...common,
    method: "POST",
    path: "/:phoneNumberId/media",
    permission: "messages.send",
    params: { phoneNumberId: PathText },
    sender: "phoneNumberId",
    errorStyle: "provider",
    summary: "Upload a file, provider style",
    description:
      "Provider-compatible upload (multipart `file`, `type`, `messaging_product`): answers `{id}`, the mediaId sends take.",
    upload,
    body: MediaUploadForm,
    response: ProviderMediaUploaded,
    errors: UPLOAD_ERRORS,
    example: examples.postByPhoneNumberIdMedia,
    handler: async ({ principal, sender, body }) => ({
      status: 200,
      raw: { id: (await storeUpload(principal, sender, body)).id },
    }),
  }),
];
