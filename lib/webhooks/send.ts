// One HTTP attempt to a customer endpoint: POST, no redirects followed (a 3xx is a
// failure), the whole exchange bounded by timeoutMs, and at most EXCERPT_BYTES of the
// answer kept. Connections go through the SSRF-guarded DNS lookup, kept alive per
// destination origin (the Agent holds one pool per origin).
import { EventEmitter } from "node:events";
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

/**
 * The bound on one whole exchange: an EventEmitter signal (undici accepts one) that one
 * shared timer fires, instead of an AbortSignal.timeout per request, whose timer and
 * EventTarget were a visible share of a delivery's CPU (docs/event-pipeline.md). It fires
 * at most SWEEP_MS after the deadline.
 */
class Deadline extends EventEmitter {
  aborted = false;
  reason: Error | undefined;
  constructor(readonly at: number) {
    super();
  }
  fire(timeoutMs: number) {
    this.aborted = true;
    this.reason = Object.assign(new Error(`Timed out after ${timeoutMs} ms`), { name: "TimeoutError" });
    this.emit("abort");
  }
}
const SWEEP_MS = 10;
const open = new Map<Deadline, number>();
let sweeper: NodeJS.Timeout | undefined;
function sweep() {
  const now = performance.now();
  for (const [deadline, timeoutMs] of open) {
    if (deadline.at > now) continue;
    open.delete(deadline);
    deadline.fire(timeoutMs);
  }
  if (open.size === 0 && sweeper) {
    clearInterval(sweeper);
    sweeper = undefined;
  }
}
function deadlineIn(timeoutMs: number): Deadline {
  const deadline = new Deadline(performance.now() + timeoutMs);
  open.set(deadline, timeoutMs);
  sweeper ??= setInterval(sweep, SWEEP_MS).unref();
  return deadline;
}

/** Up to EXCERPT_BYTES of the answer (the rest is not read). */
function readExcerpt(body: NodeJS.ReadableStream & { destroy: () => void }): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => resolve(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString("utf8"));
    body.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_BYTES) {
        body.destroy();
        done();
      }
    });
    body.on("end", done);
    body.on("error", reject);
  });
}

export async function sendWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const signal = deadlineIn(timeoutMs);
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
  } finally {
    open.delete(signal);
  }
}
