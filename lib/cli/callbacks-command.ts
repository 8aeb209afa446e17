// callbacks:dead and callbacks:retry: the provider callback dead-letter list
// (lib/events/ingest/dead-letters.ts).
import { listDeadCallbacks, retryDeadCallbacks } from "@/lib/events/ingest/dead-letters";
import { defineCommand } from "./command";
import { CallbacksDeadArgs, CallbacksRetryArgs } from "./schemas";

export const callbacksDeadCommand = defineCommand({
  options: { limit: { type: "string" } },
  schema: CallbacksDeadArgs,
  run: async ({ limit }) => {
    const { total, items } = await listDeadCallbacks(limit);
    const lines = items.map(
      (c) =>
        `${c.id}  received ${c.receivedAt.toISOString()}  ${c.attempts} attempts  ${c.bytes} bytes  ${c.error ?? ""}`,
    );
    return {
      json: {
        total,
        callbacks: items.map((c) => ({
          ...c,
          receivedAt: c.receivedAt.toISOString(),
          deadAt: c.deadAt.toISOString(),
        })),
      },
      text: total === 0 ? "No dead provider callbacks." : [`${total} dead provider callback(s):`, ...lines].join("\n"),
    };
  },
});

export const callbacksRetryCommand = defineCommand({
  options: { all: { type: "boolean" } },
  positionals: ["CALLBACK_ID"],
  schema: CallbacksRetryArgs,
  run: async ({ callbackId, all }) => {
    const outcomes = await retryDeadCallbacks(all ? "all" : [callbackId ?? ""]);
    const processed = outcomes.filter((o) => o.result === "processed").length;
    const failed = outcomes.filter((o) => o.result === "failed");
    const notDead = outcomes.filter((o) => o.result === "not_dead");
    const text = [
      `Applied ${processed} of ${outcomes.length} callback(s).`,
      ...failed.map((o) => `  ${o.id} failed again (queued for retries): ${o.error}`),
      ...notDead.map((o) => `  ${o.id} is not in the dead-letter list`),
    ].join("\n");
    return { json: { processed, failed: failed.length, outcomes }, text };
  },
});
