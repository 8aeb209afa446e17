// callbacks:retry: applies dead provider callbacks again (lib/ingest/dead-letter-retry.ts).
import { retryDeadCallbacks } from "@/lib/ingest/dead-letter-retry";
import { defineCommand } from "./command";
import { CallbacksRetryArgs } from "./schemas";

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
