// The lean node:http server mounts the same router: same statuses, same bodies, same
// headers as the in-process call, streamed request bodies included.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { createLeanServer } from "@/lib/http/lean-server";
import { mounts } from "@/lib/http/mounts";
import { call, createTestCustomer, type TestCustomer } from "./factory";
import { sendHttp } from "./http-send";
import { rawRequest } from "./raw-request";

let server: http.Server;
let port: number;
let c: TestCustomer;

beforeAll(async () => {
  c = await createTestCustomer();
  server = createLeanServer(mounts);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const send = (method: string, path: string, headers: Record<string, string>, chunks: string[] = []) =>
  sendHttp(port, method, path, headers, chunks);

const shape = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(shape)
    : value && typeof value === "object"
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]))
      : typeof value;

describe("lean server", () => {
  it("answers an error like the in-process router, with the request id header", async () => {
    const auth = { Authorization: `Bearer ${c.globalToken}` };
    const lean = await send("GET", "/api/v3/nowhere", auth);
    const inProcess = await call("GET", "/api/v3/nowhere", { token: c.globalToken });
    const body = JSON.parse(lean.text);
    expect(lean.status).toBe(inProcess.status);
    expect(shape(body)).toEqual(shape(inProcess.body));
    expect(body.error_code).toBe("NOT_FOUND");
    expect(lean.headers["x-service-request-id"]).toBe(body.metadata.requestId);
    expect(lean.headers["content-type"]).toMatch(/^application\/json/);

    const missing = await send("GET", "/api/v2/webhooks", {});
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.text)).toMatchObject({
      error_code: "MISSING_AUTH_TOKEN",
      metadata: { apiVersion: "v2" },
    });
  });

  it("serves the same OpenAPI document", async () => {
    const lean = await send("GET", "/api/v3/openapi.json", {});
    const inProcess = await call("GET", "/api/v3/openapi.json");
    expect(lean.status).toBe(200);
    const doc = JSON.parse(lean.text);
    // servers[] is the configured public URL, not this request's Host.
    expect(doc.servers).toEqual(inProcess.body.servers);
    expect(doc.paths).toEqual(inProcess.body.paths);
  });

  it("reads a streamed (chunked) POST body and answers like the in-process router", async () => {
    const json = JSON.stringify({ contactBook: { name: "Streamed book", description: "sent in pieces" } });
    const pieces = [json.slice(0, 10), json.slice(10, 30), json.slice(30)];
    const lean = await send(
      "POST",
      "/api/v3/contact-books",
      { Authorization: `Bearer ${c.globalToken}`, "Content-Type": "application/json" },
      pieces,
    );
    const body = JSON.parse(lean.text);
    expect(body.success, lean.text).toBe(true);
    expect(body.data).toMatchObject({ name: "Streamed book", description: "sent in pieces" });
    expect(lean.headers["x-service-request-id"]).toBe(body.metadata.requestId);
    const inProcess = await call("POST", "/api/v3/contact-books", {
      token: c.globalToken,
      body: { contactBook: { name: "In-process book", description: "sent whole" } },
    });
    expect(lean.status).toBe(inProcess.status);
    expect(shape(body)).toEqual(shape(inProcess.body));
  });

  it("a fallback token in a streamed JSON body works too", async () => {
    const json = JSON.stringify({ authToken: c.globalToken, contactBook: { name: "Body token book" } });
    const lean = await send("POST", "/api/v2/contact-books", { "Content-Type": "application/json" }, [
      json.slice(0, 7),
      json.slice(7),
    ]);
    expect(JSON.parse(lean.text)).toMatchObject({ success: true, metadata: { apiVersion: "v2" } });
  });

  describe("body limit", () => {
    afterEach(() => {
      delete process.env.API_BODY_LIMIT_BYTES;
      resetEnvCache();
    });

    it("a chunked body over the limit gets the 413 envelope, not a dropped connection", async () => {
      process.env.API_BODY_LIMIT_BYTES = "2048";
      resetEnvCache();
      const chunk = "x".repeat(1024);
      const lean = await send(
        "POST",
        "/api/v3/contact-books",
        { Authorization: `Bearer ${c.globalToken}`, "Content-Type": "application/json" },
        ['{"contactBook":{"name":"', chunk, chunk, chunk, '"}}'],
      );
      expect(lean.status).toBe(413);
      expect(JSON.parse(lean.text)).toMatchObject({
        error_code: "PAYLOAD_TOO_LARGE",
        message: "Request body exceeds the limit of 2048 bytes",
      });
      expect(lean.headers["x-service-request-id"]).toMatch(/^req_/);
    });

    it("a 413 closes the connection after the client has sent its body: the answer whole, no reset", async () => {
      process.env.API_BODY_LIMIT_BYTES = "2048";
      resetEnvCache();
      const head = (length: string) =>
        `POST /api/v3/contact-books HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${c.globalToken}\r\n` +
        `Content-Type: application/json\r\n${length}\r\n`;
      const body = Buffer.alloc(2 * 1024 * 1024, 0x61);
      // Declared over the limit (refused before reading), and chunked (refused after 2 KiB).
      const chunked = `${body.length.toString(16)}\r\n${body.toString("latin1")}\r\n0\r\n\r\n`;
      for (const [what, outcome] of [
        ["declared", await rawRequest(port, head(`Content-Length: ${body.length}\r\n`), body)],
        ["chunked", await rawRequest(port, head("Transfer-Encoding: chunked\r\n"), chunked)],
      ] as const) {
        expect(outcome.head, what).toMatch(/^HTTP\/1\.1 413 /);
        expect(outcome.head.toLowerCase(), what).toContain("connection: close");
        expect(JSON.parse(outcome.body), what).toMatchObject({ error_code: "PAYLOAD_TOO_LARGE" });
        expect(outcome.ended, what).toBe("end");
      }
    });

    it("a declared Content-Length over the limit is refused before reading", async () => {
      process.env.API_BODY_LIMIT_BYTES = "2048";
      resetEnvCache();
      const body = JSON.stringify({ contactBook: { name: "y".repeat(5000) } });
      const lean = await send(
        "POST",
        "/api/v3/contact-books",
        {
          Authorization: `Bearer ${c.globalToken}`,
          "Content-Type": "application/json",
          "Content-Length": String(Buffer.byteLength(body)),
        },
        [body],
      );
      expect(lean.status).toBe(413);
    });
  });
});
