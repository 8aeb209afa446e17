// Embedded PGlite: one process owns the data folder and serves it on a loopback
// PostgreSQL socket, so every other command (CLI, migrations, benchmarks, the Next
// server) uses the same adapter-pg path as in server mode. See docs/database.md "Embedded mode".
// The socket asks for a password, generated once into the data folder (pglite-password,
// mode 0600); the address file's URL carries it for the CLI and db:migrate.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { pinExtendedProtocol } from "./pglite-queue";
import { listenWithPassword } from "./socket-auth";

export type EmbeddedAddress = { host: string; port: number; pid: number; url: string };

export type EmbeddedServer = EmbeddedAddress & { close: () => Promise<void> };

const ADDRESS_FILE = "pglite-server.json";
const LOCK_FILE = "pglite.lock";
const PASSWORD_FILE = "pglite-password";

/** The socket's password: kept in the data folder (an in-memory database gets a fresh one). */
function socketPassword(dataDir: string | undefined): string {
  const fresh = () => randomBytes(24).toString("base64url");
  if (!dataDir) return fresh();
  const file = path.join(dataDir, PASSWORD_FILE);
  if (fs.existsSync(file)) {
    const stored = fs.readFileSync(file, "utf8").trim();
    if (stored) return stored;
  }
  const password = fresh();
  fs.writeFileSync(file, password, { mode: 0o600 });
  return password;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    socket.setTimeout(1000);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** The address of the process that currently serves the data folder, if any. */
export async function findRunningEmbedded(dataDir: string): Promise<EmbeddedAddress | undefined> {
  const file = path.join(dataDir, ADDRESS_FILE);
  if (!fs.existsSync(file)) return undefined;
  try {
    const address = JSON.parse(fs.readFileSync(file, "utf8")) as EmbeddedAddress;
    if (address.pid !== process.pid && !isAlive(address.pid)) return undefined;
    return (await canConnect(address.host, address.port)) ? address : undefined;
  } catch {
    return undefined;
  }
}

function acquireLock(dataDir: string): () => void {
  const lock = path.join(dataDir, LOCK_FILE);
  for (let i = 0; i < 2; i++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      return () => fs.rmSync(lock, { force: true });
    } catch {
      const holder = Number(fs.readFileSync(lock, "utf8"));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `The embedded database in ${dataDir} is held by process ${holder}. ` +
            "Stop that process first (opening it twice would corrupt it).",
        );
      }
      fs.rmSync(lock, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

/** Opens the data folder (or an in-memory database when dataDir is undefined) and serves it. */
export async function startEmbedded(
  dataDir: string | undefined,
  options: { port?: number; maxConnections?: number } = {},
): Promise<EmbeddedServer> {
  let release = () => {};
  if (dataDir) {
    fs.mkdirSync(dataDir, { recursive: true });
    release = acquireLock(dataDir);
  }
  try {
    // Loaded here, not at the top: a process that only connects to a running app's socket
    // (the operator CLI, db:migrate) never loads PGlite (docs/benchmarks.md "Start-up and
    // the operator CLI").
    const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
      import("@electric-sql/pglite"),
      import("@electric-sql/pglite-socket"),
    ]);
    const db = dataDir ? await PGlite.create(path.join(dataDir, "pgdata")) : await PGlite.create();
    const host = "127.0.0.1";
    const server = new PGLiteSocketServer({ db, host, maxConnections: options.maxConnections ?? 32 });
    pinExtendedProtocol(server);
    const password = socketPassword(dataDir);
    const listener = await listenWithPassword(server, { host, port: options.port ?? 0, password });
    const port = (listener.address() as net.AddressInfo).port;
    const address: EmbeddedAddress = {
      host,
      port,
      pid: process.pid,
      url: `postgresql://postgres:${encodeURIComponent(password)}@${host}:${port}/postgres?sslmode=disable`,
    };
    if (dataDir) {
      // The URL carries the password: readable by this user only (an old file is replaced).
      const file = path.join(dataDir, ADDRESS_FILE);
      fs.rmSync(file, { force: true });
      fs.writeFileSync(file, JSON.stringify(address), { mode: 0o600 });
    }
    return {
      ...address,
      close: async () => {
        const closed = new Promise((resolve) => listener.close(resolve));
        await server.stop(); // ends the admitted connections, so the listener can close
        await closed;
        await db.close();
        if (dataDir) fs.rmSync(path.join(dataDir, ADDRESS_FILE), { force: true });
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
