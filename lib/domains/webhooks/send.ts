// One HTTP attempt to a customer endpoint: POST, no redirects followed (a 3xx is a
// failure), the whole exchange bounded by timeoutMs, and at most EXCERPT_BYTES of the
// answer kept. Connections go through the SSRF-guarded DNS lookup, kept alive per
// destination origin (the Agent holds one pool per origin).
//
// The request goes through undici's dispatch API with a small handler rather than
// `request()` (a response stream, an AbortSignal timer and a header object per attempt),
// and one shared timer enforces every deadline: both were a visible share of a
// delivery's CPU (docs/event-pipeline.md "Delivery worker").
import type { Dispatcher } from "undici";
import { Agent } from "undici";
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

// ---- deadlines: one timer for all requests in flight (fires at most SWEEP_MS late) ----
const SWEEP_MS = 10;
const deadlines = new Map<() => void, number>();
let sweeper: NodeJS.Timeout | undefined;
function sweep() {
  const now = performance.now();
  for (const [expire, at] of deadlines) {
    if (at > now) continue;
    deadlines.delete(expire);
    expire();
  }
  if (deadlines.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}
function setDeadline(expire: () => void, timeoutMs: number): void {
  deadlines.set(expire, performance.now() + timeoutMs);
  sweeper ??= setInterval(sweep, SWEEP_MS).unref();
}

// ---- the target's origin and path, parsed once per URL ----
const targets = new Map<string, { origin: string; path: string }>();
function target(url: string): { origin: string; path: string } {
  let t = targets.get(url);
  if (!t) {
    const u = new URL(url);
    t = { origin: u.origin, path: `${u.pathname}${u.search}` };
    if (targets.size > 5000) targets.clear();
    targets.set(url, t);
  }
  return t;
}

function headerValue(raw: Buffer[] | string[] | null, name: string): string | null {
  if (!raw) return null;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const key = raw[i];
    if (key && key.length === name.length && key.toString().toLowerCase() === name) return String(raw[i + 1]);
  }
  return null;
}

export function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const latency = () => Math.round(performance.now() - started);
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let abort: ((reason?: Error) => void) | undefined;
    let statusCode = 0;
    let retryAfter: string | null = null;
    const chunks: Buffer[] = [];
    let size = 0;
    const failed = (message: string) => ({
      statusCode: null,
      latencyMs: latency(),
      error: message.slice(0, 500),
      responseExcerpt: null,
      retryAfter: null,
    });
    const settle = (result: SendResult) => {
      if (settled) return;
      settled = true;
      deadlines.delete(expire);
      resolve(result);
    };
    const answered = () =>
      settle({
        statusCode,
        latencyMs: latency(),
        error: statusCode >= 200 && statusCode < 300 ? null : `HTTP ${statusCode}`,
        responseExcerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8"),
        retryAfter,
      });
    const timeoutError = () => Object.assign(new Error(`Timed out after ${timeoutMs} ms`), { name: "TimeoutError" });
    // The deadline answers at once; the request is cut as soon as it has a connection.
    function expire() {
      settle(failed(`Timed out after ${timeoutMs} ms`));
      abort?.(timeoutError());
    }
    const handler: Dispatcher.DispatchHandler = {
      onConnect(abortRequest) {
        abort = abortRequest;
        if (settled) abortRequest(timeoutError());
      },
      onHeaders(code, rawHeaders) {
        if (code < 200) return true; // informational (100 Continue): the answer follows
        statusCode = code;
        retryAfter = headerValue(rawHeaders as Buffer[] | null, "retry-after");
        return true;
      },
      onData(chunk) {
        chunks.push(chunk);
        size += chunk.length;
        if (size >= EXCERPT_BYTES) {
          // The rest of the answer is not read: the connection is dropped.
          answered();
          abort?.();
          return false;
        }
        return true;
      },
      onComplete() {
        answered();
      },
      onError(error) {
        settle(failed(error instanceof Error ? error.message : String(error)));
      },
    };
    setDeadline(expire, timeoutMs);
    try {
      const { origin, path } = target(url);
      dispatcher().dispatch(
        { origin, path, method: "POST", headers, body, headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
        handler,
      );
    } catch (error) {
      settle(failed(error instanceof Error ? error.message : String(error)));
    }
  });
}
