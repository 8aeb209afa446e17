// npm run serve:api: the lean node:http server (PORT, default 3001; 0 picks a free port):
// the public API, the provider callback endpoint and GET /api/health. Several may run on
// one database and Redis (docs/deployment.md).
import type { AddressInfo } from "node:net";
import { EnvError, env } from "@/lib/core/env";
import { disconnectDb, getDb } from "@/lib/db";
import { flushCallbackWakeup } from "@/lib/domains/provider/callbacks/accept";
import { flushUsage } from "@/lib/domains/tokens/usage";
import { createLeanServer } from "@/lib/http/lean-server";
import { mounts } from "@/lib/http/mounts";

try {
  env();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

await getDb();
const port = Number(process.env.PORT ?? 3001);
const server = createLeanServer(mounts).listen(port, "0.0.0.0", () => {
  const { port: listening } = server.address() as AddressInfo;
  console.log(`Switchboard API (lean server) on http://localhost:${listening}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    // Buffered API usage rows (docs/tokens.md) are written and the last window's callback
    // wake-up is sent (docs/event-pipeline.md) before the pool closes.
    server.close(
      () =>
        void Promise.allSettled([flushUsage(), flushCallbackWakeup()]).finally(
          () => void disconnectDb().finally(() => process.exit(0)),
        ),
    );
  });
}
