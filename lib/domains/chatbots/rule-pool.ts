// Customer patterns run off the event loop (docs/chatbots.md "Patterns"): re2js is linear in
// time, but fifty heavy patterns over a 4,096-character text held a process for 20 s, and
// every other tenant's requests with it. Bots with patterns are decided in a worker thread (piscina),
// one message at a time per thread, with a time budget per message (CHATBOT_RULE_BUDGET_MS);
// a worker that runs out is terminated and the message gets the bot's fallback
// (docs/chatbots.md "Patterns"). No thread runs until a bot with patterns is decided, and an
// idle one ends after IDLE_MS: an idle app spends no CPU on the pool.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { env } from "@/lib/core/env";
import type { BotConfig, Decision } from "./engine";
import type { DecideTask } from "./rule-worker";

/** The compiled worker beside the server bundle's chunks (scripts/build-server.mjs). */
export const BUNDLED_WORKER = "chatbot-rule-worker.mjs";
const SOURCE_WORKER = "lib/domains/chatbots/rule-worker-source.mjs";
const IDLE_MS = 30_000;
/** A task waits this long at most for a thread to start it (a long queue, a slow start). */
const START_WAIT_MS = 30_000;

/**
 * The worker's file. In the server bundle, a sibling of the running chunk. Anywhere else
 * (tsx, vitest, Next's server, whose chunks have no sibling worker) the source bootstrap,
 * found from the working directory: the project root for every script, test and `next`.
 * The path is built at run time so that no bundler takes it for an asset to copy.
 */
export function workerFile(here = import.meta.url): string {
  if (here.includes("/.build/server/")) return here.slice(0, here.lastIndexOf("/") + 1) + BUNDLED_WORKER;
  let dir = process.cwd();
  while (!fs.existsSync(path.join(dir, SOURCE_WORKER)) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return pathToFileURL(path.join(dir, SOURCE_WORKER)).href;
}

let pool: Piscina | undefined;

function thePool(): Piscina {
  pool ??= new Piscina({ filename: workerFile(), minThreads: 0, maxThreads: 1, idleTimeout: IDLE_MS });
  return pool;
}

export type BudgetedDecision = { decision: Decision } | { timedOut: true };

/** The bot's decision computed in the pool, or timedOut once it ran budgetMs (the worker is terminated). */
export async function decideInPool(
  bot: BotConfig,
  text: string,
  now: Date,
  budgetMs = env().CHATBOT_RULE_BUDGET_MS,
  replyId?: string | null,
): Promise<BudgetedDecision> {
  const { port1, port2 } = new MessageChannel();
  const abort = new AbortController();
  let budget: NodeJS.Timeout | undefined;
  const startWait = setTimeout(() => abort.abort(), START_WAIT_MS);
  port1.once("message", () => {
    clearTimeout(startWait);
    budget = setTimeout(() => abort.abort(), budgetMs);
  });
  const task: DecideTask = { bot, text, replyId, now: now.getTime(), started: port2 };
  try {
    const decision: Decision = await thePool().run(task, { signal: abort.signal, transferList: [port2] });
    return { decision };
  } catch (error) {
    if (abort.signal.aborted) return { timedOut: true };
    throw error;
  } finally {
    clearTimeout(startWait);
    clearTimeout(budget);
    port1.close();
  }
}

/** Tests and shutdown: ends the pool's threads. */
export async function closeRulePool(): Promise<void> {
  const previous = pool;
  pool = undefined;
  await previous?.destroy();
}
