// Concurrent parameterised queries on several connections to the embedded server must not
// clobber each other's unnamed statements (see pglite-queue.ts).
import pg from "pg";
import { expect, it } from "vitest";
import { createClient } from "../db";
import { startEmbedded } from "./embedded";
import { pinExtendedProtocol } from "./pglite-queue";

// Each test starts a PGlite of its own (WebAssembly, compiled and initialised in this process):
// a few seconds alone, more than vitest's default 30 s beside the other test lanes on a
// saturated 2-core machine (2026-11-30 CI run: both timed out there, and passed alone).
const SLOW_MACHINE_MS = 120_000;

it(
  "keeps concurrent parameterised queries from different connections apart",
  async () => {
    const server = await startEmbedded(undefined, { maxConnections: 16 });
    const client = createClient(server.url, 8);
    try {
      // A transaction that begins while another connection is between Parse and Sync used to
      // replace that connection's unnamed statement.
      const plain = (i: number) =>
        client.$queryRawUnsafe<{ v: number }[]>("SELECT $1::int + $2::int AS v", i, 1).then((r) => r[0]?.v === i + 1);
      const inTx = (i: number) =>
        client.$transaction(
          async (tx) => {
            const a = await tx.$queryRawUnsafe<{ v: number }[]>("SELECT $1::int * 2 AS v", i);
            const b = await tx.$queryRawUnsafe<{ v: number }[]>("SELECT $1::int * 3 AS v", i);
            return a[0]?.v === i * 2 && b[0]?.v === i * 3;
            // The embedded server runs one transaction at a time: 100 of them queue behind each
            // other, longer than Prisma's default 2 s wait on a busy machine.
          },
          { maxWait: 60_000, timeout: 60_000 },
        );
      const jobs = Array.from({ length: 300 }, (_, i) => (i % 3 === 0 ? inTx(i) : plain(i)));
      const results = await Promise.allSettled(jobs);
      const wrong = results.filter((r) => r.status === "rejected" || !r.value);
      expect(wrong).toHaveLength(0);
    } finally {
      await client.$disconnect();
      await server.close();
    }
  },
  SLOW_MACHINE_MS,
);

/**
 * An in-memory PGlite behind the socket server with the patched queue, and two clients: one
 * whose socket the test breaks, and another.
 */
async function patchedServer() {
  const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-socket"),
  ]);
  const db = await PGlite.create();
  const server = new PGLiteSocketServer({ db, host: "127.0.0.1", port: 0, maxConnections: 4 });
  pinExtendedProtocol(server);
  await server.start();
  const url = `postgresql://postgres@127.0.0.1:${(server as unknown as { port: number }).port}/postgres?sslmode=disable`;
  return {
    db,
    server,
    dying: new pg.Client({ connectionString: url }),
    other: new pg.Client({ connectionString: url }),
  };
}

it(
  "a connection whose answer cannot be written (its client killed) does not stall the database",
  async () => {
    const { db, server, dying, other } = await patchedServer();
    try {
      await dying.connect();
      dying.on("error", () => {});
      await dying.query("SELECT 1");
      // Its socket throws on the next write, as one being torn down by a SIGKILL can, inside
      // PGlite's call: the other connections must be answered all the same.
      type Handler = { socket: { write: () => never } | null };
      const handlers = [...(server as unknown as { handlers: Set<Handler> }).handlers];
      for (const h of handlers)
        if (h.socket)
          h.socket.write = () => {
            throw new TypeError("write on a dying socket");
          };
      dying.query("SELECT 2").catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 200));
      await other.connect();
      const answer = await Promise.race([
        other.query("SELECT 3 AS v"),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("the database stopped answering")), 10_000),
        ),
      ]);
      expect(answer.rows).toEqual([{ v: 3 }]);
    } finally {
      await other.end().catch(() => {});
      await dying.end().catch(() => {});
      await server.stop();
      await db.close();
    }
  },
  SLOW_MACHINE_MS,
);

it(
  "a notice relayed to a connection that cannot be written leaves no unhandled rejection, and the queue goes on",
  async () => {
    // The socket server runs its queue without awaiting it: a rejection there ended vitest's
    // main process (which hosts the test run's database) without its report, and would end the app.
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", record);
    const { db, server, dying, other } = await patchedServer();
    try {
      await dying.connect();
      dying.on("error", () => {});
      await dying.query("LISTEN wake");
      type Handler = { socket: { write: () => never } | null };
      for (const h of (server as unknown as { handlers: Set<Handler> }).handlers)
        if (h.socket)
          h.socket.write = () => {
            throw new TypeError("write on a dying socket");
          };
      await other.connect();
      // Its notice is copied to every other connection, the dying one among them.
      await other.query("NOTIFY wake, 'x'");
      const answers = await Promise.race([
        Promise.all([other.query("SELECT 1 AS v"), other.query("SELECT 2 AS v")]),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error("the database stopped answering")), 10_000),
        ),
      ]);
      expect(answers.map((a) => a.rows[0])).toEqual([{ v: 1 }, { v: 2 }]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", record);
      await other.end().catch(() => {});
      await dying.end().catch(() => {});
      await server.stop();
      await db.close();
    }
  },
  SLOW_MACHINE_MS,
);
