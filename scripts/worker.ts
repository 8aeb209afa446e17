// npm run worker: the provider-callback processor and the webhook delivery worker as a
// standalone process (server mode, DATABASE_URL set; several may run at once).
// Settings: WORKER_CONCURRENCY, WORKER_POLL_MS, WORKER_LEASE_MARGIN_MS, WEBHOOK_RETRY_BASE_MS;
// WORKER_HEALTH_PORT: answer GET /healthz there (docs/deployment.md "Health checks").
// Flags: --deliveries-only (no callback processing), --callbacks-only (no deliveries),
// --customer <id> (repeatable: deliver
// only for those customers).
import { parseArgs } from "node:util";
import { startBackgroundWork } from "@/lib/background";
import { EnvError, env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { disconnectDb } from "@/lib/db";
import { flushCallbackWakeup } from "@/lib/domains/provider/callbacks/accept";
import { startHealthServer } from "@/lib/http/health";

try {
  env();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const { values } = parseArgs({
  options: {
    "deliveries-only": { type: "boolean" },
    "callbacks-only": { type: "boolean" },
    customer: { type: "string", multiple: true },
  },
});
const background = await startBackgroundWork({
  deliveriesOnly: values["deliveries-only"] ?? false,
  callbacksOnly: values["callbacks-only"] ?? false,
  customerIds: values.customer,
});
log.info({ pid: process.pid }, "worker started");
const healthPort = env().WORKER_HEALTH_PORT;
const health = healthPort === undefined ? undefined : await startHealthServer(healthPort, "worker");
const healthAddress = health?.address();
if (healthAddress && typeof healthAddress === "object") {
  console.log(`worker health on http://127.0.0.1:${healthAddress.port}/healthz`);
}
console.log("worker ready");

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  log.info("worker stopping: letting in-flight deliveries finish");
  health?.close();
  await background.stop();
  // The callbacks its simulator stored in the last window wake a processor now, not at the next poll.
  await flushCallbackWakeup().catch(() => {});
  await disconnectDb().catch(() => {});
  process.exit(0);
}
process.on("SIGTERM", () => void stop());
process.on("SIGINT", () => void stop());
