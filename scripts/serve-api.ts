// npm run serve:api: the lean node:http server (PORT, default 3001).
import { disconnectDb, getDb } from "@/lib/db";
import { createLeanServer } from "@/lib/http/lean-server";
import { mounts } from "@/lib/http/mounts";
import { flushUsage } from "@/lib/tokens/usage";

await getDb();
const port = Number(process.env.PORT ?? 3001);
const server = createLeanServer(mounts).listen(port, "0.0.0.0", () => {
  console.log(`Switchboard API (lean server) on http://localhost:${port}`);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    server.closeAllConnections();
    // Buffered API usage rows (docs/tokens.md) are written before the pool closes.
    server.close(() => void flushUsage().finally(() => void disconnectDb().finally(() => process.exit(0))));
  });
}
