// One HTTP attempt to a customer endpoint: POST, no redirects followed (a 3xx is a
// failure), the whole exchange bounded by timeoutMs, and at most EXCERPT_BYTES of the
// answer kept. Connections go through the SSRF-guarded DNS lookup.
import { Agent, request } from "undici";
import { guardedLookup } from "./url-guard";

export const EXCERPT_BYTES = 2048;

export type SendResult = {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseExcerpt: string | null;
  retryAfter: string | null;
};

let agent: Agent | undefined;
function dispatcher(): Agent {
  agent ??= new Agent({ connect: { lookup: guardedLookup }, keepAliveTimeout: 10_000, connections: 128 });
  return agent;
}

export async function closeSendAgent(): Promise<void> {
  const a = agent;
  agent = undefined;
  await a?.close().catch(() => {});
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy?: () => void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= EXCERPT_BYTES) {
      body.destroy?.();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8");
}

export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const signal = AbortSignal.timeout(timeoutMs);
  const latency = () => Math.round(performance.now() - started);
  try {
    const res = await request(url, {
      method: "POST",
      headers,
      body,
      dispatcher: dispatcher(),
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const excerpt = await readExcerpt(res.body);
    const retryAfter = res.headers["retry-after"];
    return {
      statusCode: res.statusCode,
      latencyMs: latency(),
      error: res.statusCode >= 200 && res.statusCode < 300 ? null : `HTTP ${res.statusCode}`,
      responseExcerpt: excerpt,
      retryAfter: Array.isArray(retryAfter) ? (retryAfter[0] ?? null) : (retryAfter ?? null),
    };
  } catch (error) {
    const timedOut = signal.aborted || (error as { name?: string }).name === "TimeoutError";
    const message = timedOut
      ? `Timed out after ${timeoutMs} ms`
      : error instanceof Error
        ? error.message
        : String(error);
    return {
      statusCode: null,
      latencyMs: latency(),
      error: message.slice(0, 500),
      responseExcerpt: null,
      retryAfter: null,
    };
  }
}
