// Password check for the embedded database socket. @electric-sql/pglite-socket 0.2.17 has
// no authentication hook: PGlite answers every startup message with AuthenticationOk, so
// any local process could connect. Our own listener speaks the start of the PostgreSQL
// protocol (SSLRequest, StartupMessage, then AuthenticationCleartextPassword and the
// client's PasswordMessage), and only a connection that gave the password is handed to
// the socket server, with its startup message replayed. Cleartext is fine here: the
// listener is on loopback only, and the point is to keep other local users' processes out.
import { createHash, timingSafeEqual } from "node:crypto";
import net from "node:net";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;
const MAX_STARTUP_BYTES = 10_000;
const AUTH_TIMEOUT_MS = 10_000;

// The parts of the socket server this relies on (stable in 0.2.x; see pglite-queue.ts).
type Internals = { active: boolean; handleConnection(socket: net.Socket): Promise<void> };

const digest = (text: string) => createHash("sha256").update(text).digest();

function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C${code}\0M${message}\0\0`, "utf8");
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(4 + fields.length, 1);
  return Buffer.concat([head, fields]);
}

const ASK_FOR_PASSWORD = (() => {
  const b = Buffer.alloc(9);
  b.write("R", 0);
  b.writeInt32BE(8, 1);
  b.writeInt32BE(3, 5); // AuthenticationCleartextPassword
  return b;
})();

/**
 * Serves `server`'s database on host:port, admitting only connections that send
 * `password`. The socket server itself never listens (its own listener would take
 * anyone); call its stop() and this listener's close() to shut down.
 */
export async function listenWithPassword(
  server: PGLiteSocketServer,
  options: { host: string; port: number; password: string },
): Promise<net.Server> {
  const internals = server as unknown as Internals;
  await server.db.waitReady;
  internals.active = true;
  const expected = digest(options.password);

  const listener = net.createServer((socket) => {
    let buffer = Buffer.alloc(0);
    let startup: Buffer | undefined;
    let done = false;
    const timer = setTimeout(() => socket.destroy(), AUTH_TIMEOUT_MS);
    timer.unref();
    const refuse = (code: string, message: string) => {
      done = true;
      clearTimeout(timer);
      socket.removeListener("data", onData);
      socket.end(errorResponse(code, message));
    };
    const onData = (chunk: Buffer) => {
      if (done) return;
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length > MAX_STARTUP_BYTES) return refuse("08P01", "startup packet too long");
      while (!done) {
        if (!startup) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          const code = buffer.readInt32BE(4);
          if (length < 8 || length > MAX_STARTUP_BYTES) return refuse("08P01", "invalid startup packet length");
          if (buffer.length < length) return;
          const message = buffer.subarray(0, length);
          buffer = buffer.subarray(length);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write("N"); // no encryption on loopback; the client goes on in plain text
            continue;
          }
          if (code === CANCEL_REQUEST) {
            done = true;
            clearTimeout(timer);
            socket.destroy();
            return;
          }
          if (code !== PROTOCOL_3) return refuse("0A000", "unsupported frontend protocol");
          startup = Buffer.from(message);
          socket.write(ASK_FOR_PASSWORD);
          continue;
        }
        if (buffer.length < 5) return;
        if (buffer[0] !== 0x70 /* 'p' */) return refuse("28000", "password authentication required");
        const length = buffer.readInt32BE(1);
        if (length < 5 || length > MAX_STARTUP_BYTES) return refuse("08P01", "invalid password packet length");
        if (buffer.length < 1 + length) return;
        const given = buffer
          .subarray(5, 1 + length)
          .toString("utf8")
          .replace(/\0$/, "");
        const rest = buffer.subarray(1 + length);
        if (!timingSafeEqual(digest(given), expected)) {
          return refuse("28P01", 'password authentication failed for user "postgres"');
        }
        done = true;
        clearTimeout(timer);
        socket.removeListener("data", onData);
        // The socket server attaches its data listener synchronously; it then reads the
        // replayed startup message (answered with AuthenticationOk) and anything after it.
        // Not awaited by anyone: a rejection would be unhandled and end the process hosting the
        // database (lib/db/pglite-queue.ts). A connection that cannot be attached is closed.
        internals.handleConnection(socket).catch(() => socket.destroy());
        socket.emit("data", rest.length ? Buffer.concat([startup, rest]) : startup);
        return;
      }
    };
    socket.on("data", onData);
    socket.on("error", () => socket.destroy());
  });

  await new Promise<void>((resolve, reject) => {
    listener.once("error", reject);
    listener.listen(options.port, options.host, () => {
      listener.removeListener("error", reject);
      resolve();
    });
  });
  return listener;
}
