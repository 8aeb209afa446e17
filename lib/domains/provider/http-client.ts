// The provider's Graph-style HTTP API: POST /{version}/{phoneNumberId}/messages,
// /{version}/{phoneNumberId}/media and /{version}/{wabaId}/message_templates, bearer access
// token per sender.
import { randomBytes } from "node:crypto";
import { Readable } from "node:stream";
import { env } from "@/lib/core/env";
import { isRetryableCode } from "./error-codes";
import { httpMediaDownloads } from "./http-media";
import type {
  ProviderClient,
  ProviderMessagePayload,
  ProviderReadOutcome,
  ProviderRefused,
  ProviderSender,
  ProviderSendOutcome,
  ProviderTemplate,
  ProviderTemplateInput,
  ProviderUpload,
  ProviderUploadOutcome,
} from "./types";

export type HttpClientConfig = {
  baseUrl: string;
  apiVersion: string;
  timeoutMs: number;
  /** Access token for a sender's phone number id (per-sender tokens over a default). */
  tokenFor: (phoneNumberId: string) => string | undefined;
  fetch?: typeof fetch;
};

export function httpConfigFromEnv(): HttpClientConfig {
  const e = env();
  const perSender = parseTokenMap(e.PROVIDER_ACCESS_TOKENS);
  return {
    baseUrl: e.PROVIDER_BASE_URL,
    apiVersion: e.PROVIDER_API_VERSION,
    timeoutMs: e.PROVIDER_TIMEOUT_MS,
    tokenFor: (id) => perSender[id] ?? e.PROVIDER_ACCESS_TOKEN,
  };
}

function parseTokenMap(raw: string | undefined): Record<string, string> {
  if (!raw) return {};
  const parsed: unknown = JSON.parse(raw);
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error("PROVIDER_ACCESS_TOKENS must be a JSON object of phoneNumberId to token");
  }
  return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === "string"));
}

type GraphError = { error?: { message?: string; code?: number; error_subcode?: number | null } };
type GraphSend = { contacts?: { wa_id?: string; input?: string }[]; messages?: { id?: string }[] };
type GraphTemplate = {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components?: unknown[];
  quality_score?: { score?: string };
  correct_category?: string;
};

/**
 * Maps a Graph error answer to a refusal; throughput codes and 5xx are retryable. A Retry-After
 * in whole seconds (a throughput refusal's) is kept for the caller's wait.
 */
export function refusalFrom(httpStatus: number, body: unknown, retryAfter?: string | null): ProviderRefused {
  const err = (body as GraphError | null)?.error;
  const code = typeof err?.code === "number" ? err.code : 0;
  const seconds = retryAfter && /^\d{1,5}$/.test(retryAfter.trim()) ? Number(retryAfter.trim()) : undefined;
  return {
    ok: false,
    code,
    message: err?.message ?? `Provider answered HTTP ${httpStatus}`,
    retryable: isRetryableCode(code) || httpStatus >= 500,
    ambiguous: false,
    httpStatus,
    ...(seconds === undefined ? {} : { retryAfterSeconds: seconds }),
  };
}

export function createHttpClient(config: HttpClientConfig = httpConfigFromEnv()): ProviderClient {
  const doFetch = config.fetch ?? fetch;
  const url = (path: string) => `${config.baseUrl.replace(/\/$/, "")}/${config.apiVersion}/${path}`;
  const auth = (phoneNumberId: string) => {
    const token = config.tokenFor(phoneNumberId);
    if (!token) throw new Error(`No provider access token configured for phone number id ${phoneNumberId}`);
    return { Authorization: `Bearer ${token}`, "Content-Type": "application/json" };
  };
  const graph = async (path: string, phoneNumberId: string, init: RequestInit = {}) => {
    const response = await doFetch(url(path), {
      ...init,
      headers: auth(phoneNumberId),
      signal: AbortSignal.timeout(config.timeoutMs),
    });
    const body: unknown = await response.json().catch(() => null);
    return { response, body };
  };

  return {
    kind: "http",
    ...httpMediaDownloads(config),
    async phoneNumberOf(phoneNumberId: string): Promise<string | null> {
      const { response, body } = await graph(
        `${encodeURIComponent(phoneNumberId)}?fields=display_phone_number`,
        phoneNumberId,
      );
      const display = (body as { display_phone_number?: unknown } | null)?.display_phone_number;
      if (!response.ok || typeof display !== "string") return null;
      return display.replace(/\D/g, "");
    },
    async sendMessage(sender: ProviderSender, payload: ProviderMessagePayload): Promise<ProviderSendOutcome> {
      let result: Awaited<ReturnType<typeof graph>>;
      try {
        result = await graph(`${sender.phoneNumberId}/messages`, sender.phoneNumberId, {
          method: "POST",
          body: JSON.stringify(payload),
        });
      } catch (error) {
        // Timeout or reset: the provider may have accepted it. Not retried (docs/api/errors.md "When to retry").
        return { ok: false, code: 0, message: String(error), retryable: false, ambiguous: true };
      }
      if (!result.response.ok) {
        return refusalFrom(result.response.status, result.body, result.response.headers.get("retry-after"));
      }
      const sent = result.body as GraphSend;
      const messageId = sent.messages?.[0]?.id;
      if (!messageId)
        return { ok: false, code: 0, message: "Provider answer had no message id", retryable: false, ambiguous: true };
      return { ok: true, messageId, waId: sent.contacts?.[0]?.wa_id ?? payload.to.replace(/^\+/, "") };
    },

    async markRead(sender: ProviderSender, messageId: string, options = {}): Promise<ProviderReadOutcome> {
      const body = {
        messaging_product: "whatsapp",
        status: "read",
        message_id: messageId,
        ...(options.typing ? { typing_indicator: { type: "text" } } : {}),
      };
      try {
        const { response, body: answer } = await graph(`${sender.phoneNumberId}/messages`, sender.phoneNumberId, {
          method: "POST",
          body: JSON.stringify(body),
        });
        if (!response.ok) return refusalFrom(response.status, answer, response.headers.get("retry-after"));
        return { ok: true };
      } catch (error) {
        return { ok: false, code: 0, message: String(error), retryable: false, ambiguous: true };
      }
    },

    async uploadMedia(sender: ProviderSender, file: ProviderUpload): Promise<ProviderUploadOutcome> {
      const form = multipartUpload(file);
      const headers = { ...auth(sender.phoneNumberId), ...form.headers };
      try {
        const response = await doFetch(url(`${sender.phoneNumberId}/media`), {
          method: "POST",
          headers,
          body: Readable.toWeb(Readable.from(form.parts(await file.open()))) as ReadableStream,
          duplex: "half",
          // A large file takes its time: a second per megabyte on top of the call's timeout.
          signal: AbortSignal.timeout(config.timeoutMs + Math.ceil(file.size / 1_000_000) * 1000),
        } as RequestInit & { duplex: "half" });
        const body: unknown = await response.json().catch(() => null);
        const id = (body as { id?: unknown } | null)?.id;
        if (response.ok && typeof id === "string") return { ok: true, id };
        return refusalFrom(response.status, body, response.headers.get("retry-after"));
      } catch (error) {
        // Nothing was sent to anyone: the send that needed the file fails, a new send uploads again.
        return {
          ok: false,
          code: 0,
          message: `Media upload failed: ${String(error)}`,
          retryable: false,
          ambiguous: false,
        };
      }
    },

    async listTemplates(sender: ProviderSender): Promise<ProviderTemplate[]> {
      if (!sender.wabaId) return [];
      const out: ProviderTemplate[] = [];
      let next: string | undefined = url(`${sender.wabaId}/message_templates?limit=100`);
      while (next) {
        const response = await doFetch(next, {
          headers: auth(sender.phoneNumberId),
          signal: AbortSignal.timeout(config.timeoutMs),
        });
        const body = (await response.json()) as { data?: GraphTemplate[]; paging?: { next?: string } } & GraphError;
        if (!response.ok) throw new Error(`Provider template list failed: ${body.error?.message ?? response.status}`);
        for (const t of body.data ?? []) out.push(fromGraphTemplate(t));
        next = body.paging?.next;
      }
      return out;
    },

    async createTemplate(sender: ProviderSender, input: ProviderTemplateInput): Promise<ProviderTemplate> {
      if (!sender.wabaId) throw new Error("The sender has no business account id");
      const { response, body } = await graph(`${sender.wabaId}/message_templates`, sender.phoneNumberId, {
        method: "POST",
        body: JSON.stringify(input),
      });
      const created = body as { id?: string; status?: string; category?: string } & GraphError;
      if (!response.ok || !created.id)
        throw new Error(`Provider template create failed: ${created.error?.message ?? response.status}`);
      return {
        ...input,
        id: created.id,
        status: created.status ?? "PENDING",
        category: created.category ?? input.category,
      };
    },
  };
}

/**
 * The provider's upload form (`messaging_product`, `type`, `file`) as a stream: the file's
 * bytes pass through from the store, never held whole; its length is known beforehand.
 */
function multipartUpload(file: ProviderUpload) {
  const boundary = `switchboard-${randomBytes(12).toString("hex")}`;
  const name = (file.filename ?? "file").replace(/["\\\r\n]/g, "_");
  const field = (key: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    `${field("messaging_product", "whatsapp")}${field("type", file.mimeType)}--${boundary}\r\n` +
      `Content-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${file.mimeType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    headers: {
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(head.length + file.size + tail.length),
    },
    async *parts(bytes: Readable) {
      yield head;
      yield* bytes;
      yield tail;
    },
  };
}

function fromGraphTemplate(t: GraphTemplate): ProviderTemplate {
  return {
    id: t.id,
    name: t.name,
    language: t.language,
    category: t.category,
    status: t.status,
    components: t.components ?? [],
    qualityScore: t.quality_score?.score ?? null,
    correctCategory: t.correct_category ?? null,
  };
}
