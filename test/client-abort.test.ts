// A client that closes the connection in the middle of its request body (a slowloris, a
// cancelled upload) is the client's doing: logged at debug, never an "unhandled" error with a
// stack.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLeanServer } from "@/lib/http/lean-server";
import { mounts } from "@/lib/http/mounts";
import { waitFor } from "./events-helpers";

const captured = vi.hoisted(() => ({ lines: [] as { level: number; msg: string; err?: unknown }[] }));

// The real logger at debug, writing where the test can read it.
vi.mock("@/lib/core/log", async (importOriginal) => {
  const actual = await importOriginal<typeof import("@/lib/core/log")>();
  const sink = new Writable({
    write(chunk, _encoding, done) {
      captured.lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { ...actual, log: actual.createLogger(sink, "debug") };
});

let server: http.Server;
let port: number;
beforeAll(async () => {
  server = createLeanServer(mounts);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Starts a chunked POST, waits until the server has it, then resets the connection mid-body. */
async function abortMidBody(path: string): Promise<void> {
  const arrived = new Promise<void>((resolve) => server.once("request", () => resolve()));
  const socket = net.connect(port, "127.0.0.1");
  socket.on("error", () => {});
  socket.write(
    `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"a":\r\n`,
  );
  await arrived;
  socket.resetAndDestroy();
}

describe("client aborts", () => {
  it.each(["/api/v3/contact-books", "/api/provider/webhook"])(
    "a body cut off on %s is a debug line, not an unhandled error",
    async (path) => {
      captured.lines.length = 0;
      await abortMidBody(path);
      await waitFor(() => captured.lines.some((l) => /closed the request/.test(l.msg)), 10_000, "the debug line");
      const line = captured.lines.find((l) => /closed the request/.test(l.msg));
      expect(line?.level).toBe(20);
      expect(line?.err).toBeUndefined();
      expect(captured.lines.filter((l) => l.level >= 40)).toEqual([]);
      expect(captured.lines.map((l) => l.msg).join("\n")).not.toMatch(/unhandled/i);
    },
  );
});
