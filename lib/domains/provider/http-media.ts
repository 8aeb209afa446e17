// Inbound media from the provider's Graph API (docs/media.md "Inbound media"): `GET
// /{version}/{mediaId}` with the sender's access token answers the file's description and a
// download link valid 5 minutes, which is fetched with the same token. An unknown or expired
// id (404, or the Graph's error 100) is permanent; anything else is retried by the worker.
import { ProviderMediaError } from "./media-error";
import type { ProviderMediaDescription, ProviderMediaDownloads, ProviderSender } from "./types";

type GraphMedia = {
  url?: unknown;
  mime_type?: unknown;
  sha256?: unknown;
  file_size?: unknown;
  error?: { message?: string; code?: number };
};

/** What of the HTTP client's configuration (http-client.ts) the downloads use. */
type MediaConfig = {
  baseUrl: string;
  apiVersion: string;
  timeoutMs: number;
  tokenFor: (phoneNumberId: string) => string | undefined;
  fetch?: typeof fetch;
};

export function httpMediaDownloads(config: MediaConfig): ProviderMediaDownloads {
  const doFetch = config.fetch ?? fetch;
  const bearer = (sender: ProviderSender) => {
    const token = config.tokenFor(sender.phoneNumberId);
    if (!token)
      throw new ProviderMediaError(`No provider access token for phone number id ${sender.phoneNumberId}`, false);
    return { Authorization: `Bearer ${token}` };
  };
  const attempt = async (what: string, run: () => Promise<Response>): Promise<Response> => {
    try {
      return await run();
    } catch (error) {
      throw new ProviderMediaError(`${what}: ${error instanceof Error ? error.message : String(error)}`, false);
    }
  };

  return {
    async describeMedia(sender: ProviderSender, mediaId: string): Promise<ProviderMediaDescription> {
      const base = config.baseUrl.replace(/\/$/, "");
      const response = await attempt("The provider's media description could not be read", () =>
        doFetch(`${base}/${config.apiVersion}/${encodeURIComponent(mediaId)}?phone_number_id=${sender.phoneNumberId}`, {
          headers: bearer(sender),
          signal: AbortSignal.timeout(config.timeoutMs),
        }),
      );
      const body = (await response.json().catch(() => null)) as GraphMedia | null;
      if (!response.ok || typeof body?.url !== "string") {
        const unknown = response.status === 404 || body?.error?.code === 100;
        throw new ProviderMediaError(
          `The provider answered ${response.status} for media ${mediaId}${body?.error?.message ? `: ${body.error.message}` : ""}`,
          unknown,
        );
      }
      const size = Number(body.file_size);
      return {
        url: body.url,
        mimeType: typeof body.mime_type === "string" ? body.mime_type : null,
        sha256: typeof body.sha256 === "string" ? body.sha256 : null,
        fileSize: Number.isSafeInteger(size) && size >= 0 ? size : null,
      };
    },

    async downloadMedia(sender: ProviderSender, url: string, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>> {
      const response = await attempt("The provider's media download failed", () =>
        doFetch(url, { headers: bearer(sender), signal }),
      );
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => {});
        throw new ProviderMediaError(
          `The provider's media download answered ${response.status}`,
          response.status === 404,
        );
      }
      return response.body as unknown as AsyncIterable<Uint8Array>;
    },
  };
}
