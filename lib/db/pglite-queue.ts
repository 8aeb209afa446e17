// Fix for @electric-sql/pglite-socket 0.2.17: its query queue runs protocol messages one
// by one from all connections and keeps a connection exclusive only inside a transaction.
// When a transaction begins on connection A while connection B is between Parse and Sync
// of an extended-protocol query, A's statements replace B's unnamed statement, and B's
// Bind then fails ("bind message supplies 11 parameters, but prepared statement ""
// requires 1") or runs A's statement. This keeps a connection exclusive from its first
// extended message until its Sync, as well as inside a transaction.
// lib/db/pglite-queue.test.ts reproduces the failure without it.
import type { PGlite } from "@electric-sql/pglite";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

type Item = {
  handlerId: number;
  message: Uint8Array;
  resolve: (bytes: number) => void;
  reject: (error: unknown) => void;
  onData: (data: Uint8Array) => void;
};
type Queue = {
  queue: Item[];
  processing: boolean;
  lastHandlerId: number | null;
  db: PGlite;
  processQueue: () => Promise<void>;
  clearQueueForHandler: (id: number) => void;
  clearTransactionIfNeeded: (id: number) => Promise<void>;
};

// Messages that open or continue an extended-protocol sequence: Parse, Bind, Describe,
// Execute, Close, Flush, FunctionCall. Sync ('S'), Query ('Q') and Terminate end it.
const EXTENDED = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48, 0x46]);

// NOTIFY: PGlite is one session, so a notification comes out on the connection whose
// statement committed it, never on the one that ran LISTEN. Between two whole responses
// (a NotificationResponse may arrive at any time, as from a server) it is copied to
// every other connection; a client that did not LISTEN ignores it (lib/db/wakeups.ts).
const NOTIFICATION = 0x41; // 'A'

/** Collects the whole NotificationResponse messages of one response stream. */
class NotificationScanner {
  found: Buffer[] = [];
  private header = Buffer.alloc(5);
  private headerFill = 0;
  private skip = 0;
  private body: Buffer | null = null;
  private bodyFill = 0;

  scan(data: Uint8Array) {
    let i = 0;
    while (i < data.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, data.length - i);
        if (this.body) {
          this.body.set(data.subarray(i, i + n), this.bodyFill);
          this.bodyFill += n;
        }
        this.skip -= n;
        i += n;
        if (this.skip === 0 && this.body) {
          this.found.push(this.body);
          this.body = null;
        }
        continue;
      }
      this.header[this.headerFill++] = data[i++] ?? 0;
      if (this.headerFill < 5) continue;
      this.headerFill = 0;
      const length = this.header.readInt32BE(1);
      this.skip = length - 4;
      if (this.header[0] === NOTIFICATION) {
        this.body = Buffer.alloc(1 + length);
        this.header.copy(this.body, 0, 0, 5);
        this.bodyFill = 5;
      }
      if (this.skip === 0 && this.body) {
        this.found.push(this.body);
        this.body = null;
      }
    }
  }
}

/**
 * Logs a failure the queue swallowed. The logger is loaded only then: it reads the app's
 * configuration when loaded, which the processes that host the database before any
 * configuration (vitest's global setup, the end-to-end step's server) may not have yet.
 */
function warn(error: unknown, message: string) {
  import("@/lib/core/log").then(({ log }) => log.warn({ err: error }, message)).catch(() => {});
}

type Handler = { handlerId: number; socket: { writable: boolean; write: (b: Buffer) => void } | null };
function relay(server: PGLiteSocketServer, from: number, messages: Buffer[]) {
  if (messages.length === 0) return;
  const bytes = Buffer.concat(messages);
  for (const handler of (server as unknown as { handlers: Set<Handler> }).handlers) {
    try {
      if (handler.handlerId !== from && handler.socket?.writable) handler.socket.write(bytes);
    } catch {
      // A connection whose client was just killed can throw on write; its close ends it. The
      // others still get the notice, and the queue goes on.
    }
  }
}

export function pinExtendedProtocol(server: PGLiteSocketServer): void {
  const q = (server as unknown as { queryQueue: Queue }).queryQueue;
  let pinned: number | null = null;
  const clear = q.clearQueueForHandler.bind(q);
  q.clearQueueForHandler = (id: number) => {
    clear(id);
    if (pinned === id) {
      pinned = null;
      void q.processQueue();
    }
  };
  // The socket server calls these without awaiting them (enqueue, a connection's detach on its
  // close or error, stop): a rejection there is an unhandled rejection, which ends the process
  // that hosts the database (the app's, or vitest's main process in the test run, which then
  // exits without its report). Neither may reject: what failed is logged (warn), and the queue
  // goes on.
  const rollBack = q.clearTransactionIfNeeded.bind(q);
  q.clearTransactionIfNeeded = async (id: number) => {
    try {
      await rollBack(id);
    } catch (error) {
      // The database is closing (stop, then close), or the rollback failed. The queue must not
      // wait for the gone connection's next message: the others' go on.
      warn(error, "embedded database: rolling back a closed connection's transaction failed");
      if (q.lastHandlerId === id) q.lastHandlerId = null;
      void q.processQueue();
    }
  };
  const processQueue = async () => {
    if (q.processing || q.queue.length === 0) return;
    q.processing = true;
    try {
      while (q.queue.length > 0) {
        const owner = pinned ?? (q.db.isInTransaction() ? q.lastHandlerId : null);
        let item: Item | undefined;
        if (owner !== null) {
          const index = q.queue.findIndex((i) => i.handlerId === owner);
          if (index === -1) break; // wait for that connection's next message
          item = q.queue.splice(index, 1)[0];
        } else item = q.queue.shift();
        if (!item) break;
        const current = item;
        const type = current.message[0] ?? 0;
        pinned = EXTENDED.has(type) ? current.handlerId : null;
        let bytes = 0;
        const notifications = new NotificationScanner();
        try {
          await q.db.runExclusive(() =>
            q.db.execProtocolRawStream(current.message, {
              // Nothing may throw from here: this runs inside PGlite's WASM call, and an exception
              // there leaves PGlite answering no statement of any connection again (the embedded
              // database stalls). A write to a connection whose client was just killed can throw;
              // that connection's close ends it, not the database.
              onRawData: (data: Uint8Array) => {
                bytes += data.length;
                try {
                  notifications.scan(data);
                  current.onData(data);
                } catch {
                  // The connection is going: its close handler clears its queue.
                }
              },
            }),
          );
        } catch (error) {
          current.reject(error);
          continue;
        }
        relay(server, current.handlerId, notifications.found);
        q.lastHandlerId = current.handlerId;
        current.resolve(bytes);
      }
    } finally {
      q.processing = false;
    }
  };
  q.processQueue = () => processQueue().catch((error) => warn(error, "embedded database: the query queue failed"));
}
