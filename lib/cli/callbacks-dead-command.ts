// callbacks:dead: the provider callback dead-letter list (lib/ingest/dead-letters.ts).
import { listDeadCallbacks } from "@/lib/ingest/dead-letters";
import { defineCommand } from "./command";
import { CallbacksDeadArgs } from "./schemas";

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
