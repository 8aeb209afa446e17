// The provider's Graph-style HTTP API: POST /{version}/{phoneNumberId}/messages and
// /{version}/{wabaId}/message_templates, bearer access token per sender.
import { env } from "@/lib/core/env";
import { isRetryableCode } from "./error-codes";
import { httpMediaDownloads } from "./http-media";
import type {
  ProviderClient,
  ProviderMessagePayload,
  ProviderSender,
  ProviderSendOutcome,
  ProviderTemplate,
  ProviderTemplateInput,
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
export function refusalFrom(httpStatus: number, body: unknown, retryAfter?: string | null): ProviderSendOutcome {
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
