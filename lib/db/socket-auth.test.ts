// The embedded database socket admits only connections that give its password.
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EmbeddedServer, findRunningEmbedded, startEmbedded } from "./embedded";

let server: EmbeddedServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "swb-socket-auth-"));
  server = await startEmbedded(dataDir, { maxConnections: 8 });
});

afterAll(async () => {
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const withUrl = (password: string | undefined) => {
  const u = new URL(server.url);
  u.password = password ?? "";
  return u.toString();
};

async function query(connectionString: string): Promise<unknown> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    return (await client.query("SELECT 41 + 1 AS v")).rows[0]?.v;
  } finally {
    await client.end().catch(() => {});
  }
}

describe("embedded socket password", () => {
  it("admits the URL from the address file, which carries the generated password", async () => {
    const running = await findRunningEmbedded(dataDir);
    expect(running?.url).toBe(server.url);
    expect(new URL(server.url).password.length).toBeGreaterThanOrEqual(24);
    expect(await query(server.url)).toBe(42);
    const stored = fs.readFileSync(path.join(dataDir, "pglite-password"), "utf8");
    expect(new URL(server.url).password).toBe(stored);
    expect(fs.statSync(path.join(dataDir, "pglite-password")).mode & 0o077).toBe(0);
    expect(fs.statSync(path.join(dataDir, "pglite-server.json")).mode & 0o077).toBe(0);
  });

  it("refuses a connection without the password or with a wrong one (28P01)", async () => {
    await expect(query(withUrl(undefined))).rejects.toThrow(/password/);
    const wrong = await query(withUrl("guess")).catch((e) => e as { code?: string });
    expect(wrong).toMatchObject({ code: "28P01" });
  });

  it("runs nothing for a raw client that skips authentication", async () => {
    const socket = net.connect({ host: server.host, port: server.port });
    const received: Buffer[] = [];
    socket.on("data", (d) => received.push(d));
    const params = Buffer.from("user\0postgres\0database\0postgres\0\0");
    const startup = Buffer.alloc(8);
    startup.writeInt32BE(8 + params.length, 0);
    startup.writeInt32BE(196608, 4);
    const sql = Buffer.from("CREATE TABLE pwned (x int);\0");
    const q = Buffer.alloc(5);
    q.write("Q", 0);
    q.writeInt32BE(4 + sql.length, 1);
    socket.write(Buffer.concat([startup, params, q, sql]));
    await new Promise((resolve) => socket.once("close", resolve));
    const reply = Buffer.concat(received);
    expect(reply[0]).toBe(0x52); // 'R': asked for a password...
    expect(reply.readInt32BE(5)).toBe(3);
    expect(reply.subarray(9).toString()).toContain("28000"); // ...then refused
    const tables = await pg_tables();
    expect(tables).not.toContain("pwned");
  });

  it("keeps the password across restarts of the same data folder", async () => {
    const before = new URL(server.url).password;
    await server.close();
    server = await startEmbedded(dataDir, { maxConnections: 8 });
    expect(new URL(server.url).password).toBe(before);
    expect(await query(server.url)).toBe(42);
  });
});

async function pg_tables(): Promise<string[]> {
  const client = new pg.Client({ connectionString: server.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ tablename: string }>("SELECT tablename FROM pg_tables");
    return rows.map((r) => r.tablename);
  } finally {
    await client.end();
  }
}
