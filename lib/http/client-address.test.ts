// The client address the Next process's handlers read (lib/core/client-ip.ts), written where
// the socket is known: a real node:http server stands in for `next start` / `next dev` with
// the stamping instrumentation.ts installs, alone and behind the real front server. Clients
// send from several loopback addresses (127.0.0.0/8) and forge every header they can.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, requestClientIp, signedClientAddress } from "@/lib/core/client-ip";
import { resetEnvCache } from "@/lib/core/env";
import { sendHttp } from "@/test/http-send";
import { stampClientAddresses } from "./client-address";
import { createFrontServer } from "./front-server";

let next: http.Server;
let front: http.Server;
let nextPort: number;
let frontPort: number;

const listen = (server: http.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)),
  );

/** What a handler of the stand-in for Next reads as the client address. */
const seenAddress = async (port: number, headers: Record<string, string>, from: string) =>
  (await sendHttp(port, "GET", "/login", headers, [], from)).text;

const FORGED = { [CLIENT_ADDRESS_HEADER]: "10.9.9.9 bm90IGEgc2lnbmF0dXJl", "X-Forwarded-For": "10.8.8.8" };

beforeAll(async () => {
  stampClientAddresses();
  next = http.createServer((req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    res.end(requestClientIp(headers));
  });
  nextPort = await listen(next);
  front = createFrontServer([], { host: "127.0.0.1", port: nextPort });
  frontPort = await listen(front);
});
afterAll(async () => {
  await new Promise((resolve) => front.close(resolve));
  await new Promise((resolve) => next.close(resolve));
});
afterEach(() => {
  delete process.env.TRUST_PROXY;
  resetEnvCache();
});

describe("Next reached directly (npm run dev, next start alone)", () => {
  it("knows each client by its socket, whatever it claims", async () => {
    expect(await seenAddress(nextPort, {}, "127.0.0.2")).toBe("127.0.0.2");
    expect(await seenAddress(nextPort, FORGED, "127.0.0.3")).toBe("127.0.0.3");
    expect(await seenAddress(nextPort, { [CLIENT_ADDRESS_HEADER]: "10.9.9.9" }, "127.0.0.4")).toBe("127.0.0.4");
  });

  it("behind a trusted proxy (TRUST_PROXY), takes the entry that proxy appended", async () => {
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    expect(await seenAddress(nextPort, { "X-Forwarded-For": "10.8.8.8, 203.0.113.9" }, "127.0.0.2")).toBe(
      "203.0.113.9",
    );
  });

  it("keeps the address the front server signed (its socket is the front server's)", async () => {
    const signed = signedClientAddress("203.0.113.7") ?? "";
    expect(await seenAddress(nextPort, { [CLIENT_ADDRESS_HEADER]: signed }, "127.0.0.1")).toBe("203.0.113.7");
  });
});

describe("Next behind the front server (npm start)", () => {
  it("knows each client by the front server's socket, whatever it claims", async () => {
    expect(await seenAddress(frontPort, {}, "127.0.0.2")).toBe("127.0.0.2");
    expect(await seenAddress(frontPort, FORGED, "127.0.0.3")).toBe("127.0.0.3");
    // A valid signature on someone else's address, replayed through the front server, is replaced too.
    const replayed = { [CLIENT_ADDRESS_HEADER]: signedClientAddress("203.0.113.7") ?? "" };
    expect(await seenAddress(frontPort, replayed, "127.0.0.4")).toBe("127.0.0.4");
  });

  it("behind a trusted proxy, passes on the entry that proxy appended", async () => {
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    expect(await seenAddress(frontPort, { "X-Forwarded-For": "10.8.8.8, 203.0.113.9" }, "127.0.0.2")).toBe(
      "203.0.113.9",
    );
  });
});
