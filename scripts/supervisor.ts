// The app process. Embedded mode: owns .data/ (PGlite served on a loopback socket),
// migrates, seeds the demo on first run, runs the delivery worker, and runs Next with
// DATABASE_URL pointing at the socket. Server mode: runs the worker and Next.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { loadOrCreateLocalSecrets } from "@/lib/core/crypto/local-secrets";
import { EnvError, embeddedDataDir, env, provideDefaults } from "@/lib/core/env";
import { startEmbedded } from "@/lib/db/embedded";
import { migrate } from "@/lib/db/migrate";

const dev = process.argv.includes("--dev");
// The project root: this file runs from scripts/ (tsx) or from .build/server/ (the bundle).
let root = path.resolve(import.meta.dirname, "..");
while (!fs.existsSync(path.join(root, "package.json")) && path.dirname(root) !== root) root = path.dirname(root);

// Embedded mode: the secrets generated into .data/ (the environment's own win) are in
// place before validation, which requires the provider secrets in production.
const localDataDir = embeddedDataDir();
if (localDataDir) provideDefaults(loadOrCreateLocalSecrets(localDataDir));

try {
  env();
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const e = env();
const port = Number(process.env.PORT ?? 3000);
// The dashboard's public URL: next-auth's, and the one the demo login prints.
process.env.NEXTAUTH_URL ??= `http://localhost:${port}`;
// Next reports anonymous usage to Vercel unless told not to: a messaging service's server
// calls out to nobody it was not configured for (NEXT_TELEMETRY_DISABLED=0 opts back in).
const childEnv: NodeJS.ProcessEnv = { NEXT_TELEMETRY_DISABLED: "1", ...process.env };
let closeDb = async () => {};

if (!e.DATABASE_URL) {
  let embedded: Awaited<ReturnType<typeof startEmbedded>>;
  try {
    embedded = await startEmbedded(e.DATA_DIR, { port: Number(process.env.PGLITE_PORT ?? 0) });
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
  closeDb = embedded.close;
  const applied = await migrate(embedded.url);
  if (applied.length) console.log(`Migrated the embedded database (${applied.length} migration(s)).`);
  process.env.DATABASE_URL = embedded.url;
  const { resetEnvCache } = await import("@/lib/core/env");
  resetEnvCache();
  const { seedDemoOnFirstRun } = await import("@/lib/domains/demo/first-run");
  await seedDemoOnFirstRun(e.DATA_DIR);
  childEnv.DATABASE_URL = embedded.url;
  childEnv.SWITCHBOARD_EMBEDDED = "1";
}

const { startBackgroundWork } = await import("@/lib/background");
const background = await startBackgroundWork();

// Production: one public port, served by the front server (lib/http/front-server.ts: the
// API directly, with the socket's client address; the rest passed to Next on loopback).
// Dev: Next itself on the port (hot reload), the API through Next's route handlers.
const nextPort = dev ? port : await freePort();
const next = spawn(
  path.join(root, "node_modules/.bin/next"),
  [dev ? "dev" : "start", "-p", String(nextPort), ...(dev ? [] : ["-H", "127.0.0.1"])],
  { cwd: root, stdio: "inherit", env: childEnv },
);
let front: import("node:http").Server | undefined;

let stopping = false;
async function stop(code: number) {
  if (stopping) return;
  stopping = true;
  if (front?.listening) {
    // Requests in flight (a send may be committed already) get a moment to finish.
    const closed = new Promise((resolve) => front?.close(resolve));
    front.closeIdleConnections();
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    front.closeAllConnections();
  }
  next.kill("SIGTERM");
  // The callbacks of the last window wake a processor now, not at the next safety poll.
  const { flushCallbackWakeup } = await import("@/lib/domains/provider/callbacks/accept");
  await flushCallbackWakeup().catch(() => {});
  await background.stop().catch(() => {});
  await closeDb().catch(() => {});
  process.exit(code);
}
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => void stop(0));
next.on("exit", (code) => void stop(code ?? 0));

if (!dev) {
  const { createFrontServer } = await import("@/lib/http/front-server");
  const { mountsFor } = await import("@/lib/http/mounts");
  front = createFrontServer(mountsFor("app"), { host: "127.0.0.1", port: nextPort });
  try {
    await new Promise<void>((resolve, reject) => {
      front?.once("error", reject);
      front?.listen(port, resolve); // every interface, IPv4 and IPv6, as `next start` did
    });
  } catch (error) {
    console.error(`Cannot listen on port ${port}: ${(error as Error).message}`);
    await stop(1);
  }
}
console.log(
  `Switchboard: dashboard and API on http://localhost:${port} (${e.DATABASE_URL ? "PostgreSQL" : "embedded PGlite"})`,
);

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port: free } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(free));
    });
    probe.once("error", reject);
  });
}
