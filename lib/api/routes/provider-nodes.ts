// The provider's node reads, for stock provider SDKs (docs/messaging.md "Provider SDKs",
// docs/media.md "Provider SDKs"): GET /{id} is a phone number when the id is one (digits) and
// a file when it is a media id, as the provider's Graph API reads any node by its id;
// DELETE /{id} deletes a file. Provider-shaped answers and errors.
import { z } from "zod";
import { env } from "@/lib/core/env";
import * as examples from "@/lib/domains/media/examples";
import { MEDIA_ID_PATTERN, ProviderMediaInfo, ProviderMediaQuery, ProviderSuccess } from "@/lib/domains/media/schemas";
import { deleteMedia, describeForProvider } from "@/lib/domains/media/service";
import { ProviderPhoneNumber } from "@/lib/domains/senders/schemas";
import { toProviderPhoneNumber } from "@/lib/domains/senders/serializers";
import { resolveSenderByPhoneNumberId } from "@/lib/domains/senders/service";
import { type AnyRoute, route } from "../route-definition";

const PHONE_NUMBER_ID = /\d{1,30}/;
/** A phone number id or a media id: any other text is no route (404 NOT_FOUND). */
const NODE_ID = new RegExp(`${PHONE_NUMBER_ID.source}|${MEDIA_ID_PATTERN.source}`);
const NodeId = z
  .string()
  .regex(new RegExp(`^(${NODE_ID.source})$`))
  .describe("A phone number id (digits) or a media id (med_…)");
const isPhoneNumberId = (id: string) => new RegExp(`^${PHONE_NUMBER_ID.source}$`).test(id);

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  tokenScope: "any",
  errorStyle: "provider",
  params: { id: NodeId },
  pathMatch: { id: NODE_ID },
  query: ProviderMediaQuery,
} as const;

/** Where links to this service point: PUBLIC_URL, else the host the request reached. */
const apiBase = (request: Request) => `${env().PUBLIC_URL?.replace(/\/+$/, "") ?? new URL(request.url).origin}/api/v3`;

export const providerNodeRoutes: AnyRoute[] = [
  route({
    ...common,
    method: "GET",
    path: "/:id",
    permission: "messages.read",
    tag: "Senders",
    summary: "Read a phone number or a file, provider style",
    description:
      "Provider-compatible node read: a phone number id answers the phone number's public fields; a media id answers the file's type, size and sha256 and a `url` to its bytes valid 5 minutes (it still needs the token, as the provider's does).",
    response: z.union([ProviderPhoneNumber, ProviderMediaInfo]),
    errors: ["SENDER_NOT_FOUND", "TOKEN_SCOPE_NOT_ALLOWED", "SENDER_NOT_ALLOWED", "MEDIA_NOT_FOUND", "MEDIA_NOT_READY"],
    example: examples.getProviderMedia,
    handler: async ({ principal, params, request }) => {
      if (isPhoneNumberId(params.id)) {
        // The router's own resolution of a phone number id path (no route when it is none).
        const sender = await resolveSenderByPhoneNumberId(principal, params.id);
        if (sender) return { status: 200, raw: toProviderPhoneNumber(sender) };
      }
      return { status: 200, raw: await describeForProvider(principal, params.id, apiBase(request)) };
    },
  }),
  route({
    ...common,
    method: "DELETE",
    path: "/:id",
    permission: "messages.send",
    tag: "Media",
    summary: "Delete a file, provider style",
    description: "Provider-compatible delete of a media id: answers `{success: true}`.",
    response: ProviderSuccess,
    errors: ["MEDIA_NOT_FOUND"],
    example: examples.deleteProviderMedia,
    handler: async ({ principal, params }) => {
      await deleteMedia(principal, params.id);
      return { status: 200, raw: { success: true } };
    },
  }),
];
