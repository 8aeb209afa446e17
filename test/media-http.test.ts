// Uploads and downloads of files over real HTTP through the lean server (docs/media.md "API"):
// a refused upload that declared its length gets its answer (not a reset) and is parsed no
// further than its limit, an endless one is cut after it, a 100 MB document streams in with
// the process's memory flat, and a download streams with Range.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createLeanServer } from "@/lib/http/lean-server";
import { mounts } from "@/lib/http/mounts";
import { createTestCustomer, type TestCustomer } from "./factory";
import * as samples from "./media-samples";

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
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const BOUNDARY = "switchboard-test-boundary";
const partHead = (name: string, type: string) =>
  Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
  );
const partTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

type Outcome = { status: number | "cut"; body: string; sent: number };

/**
 * POSTs a multipart upload of `fileBytes` bytes: `first` then filler chunks made on the fly
 * (never held whole), as fast as the server takes them; stops when the server answers.
 */
function postUpload(
  first: Buffer,
  fileBytes: number,
  /** onChunk sees the file's own bytes (not the multipart head and tail). */
  options: { declareLength: boolean; name: string; type: string; onChunk?: (chunk: Buffer) => void },
): Promise<Outcome> {
  const head = partHead(options.name, options.type);
  const filler = Buffer.alloc(256 * 1024, 0x20);
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = (status: Outcome["status"], body = "") => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ status, body, sent });
    };
    const headers: Record<string, string> = {
      Authorization: `Bearer ${c.globalToken}`,
      "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`,
    };
    if (options.declareLength) headers["Content-Length"] = String(head.length + fileBytes + partTail.length);
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path: "/api/v3/media", headers });
    req.on("response", (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        body += d;
      });
      res.on("end", () => finish(res.statusCode ?? 0, body));
      res.on("error", () => finish(res.statusCode ?? 0, body));
    });
    req.on("error", () => finish("cut"));
    let fileSent = 0;
    const write = (chunk: Buffer) => {
      sent += chunk.length;
      return req.write(chunk);
    };
    write(head);
    const pump = () => {
      while (!done && fileSent < fileBytes) {
        const source = fileSent === 0 ? first : filler;
        const piece = source.subarray(0, Math.min(source.length, fileBytes - fileSent));
        fileSent += piece.length;
        options.onChunk?.(piece);
        if (!write(piece)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!done && fileSent >= fileBytes) {
        write(partTail);
        req.end();
      }
    };
    pump();
  });
}

it("a 6 MB image that declared its length: 413 MEDIA_TOO_LARGE read by the client, nothing stored", async () => {
  const before = await db.media.count({ where: { customerId: c.customer.id } });
  const out = await postUpload(await samples.noisePng(16), 6_000_000, {
    declareLength: true,
    name: "big.png",
    type: "image/png",
  });
  expect(out.status).toBe(413);
  expect(JSON.parse(out.body)).toMatchObject({
    error_code: "MEDIA_TOO_LARGE",
    details: { kind: "image", maxBytes: 5_000_000 },
  });
  expect(await db.media.count({ where: { customerId: c.customer.id } })).toBe(before);
});

it("an endless image (chunked): refused at its limit, the connection cut soon after", async () => {
  const out = await postUpload(await samples.noisePng(16), 1_000_000_000, {
    declareLength: false,
    name: "endless.png",
    type: "image/png",
  });
  // What the client managed to write before the cut: the limit and the socket's buffers.
  expect(out.sent).toBeLessThan(5_000_000 + 8 * 1024 * 1024);
  if (out.status !== "cut") expect(out.status).toBe(413);
});

it("a 100 MB document streams in with memory flat, and streams out with Range", async () => {
  const first = samples.pdf("A hundred megabytes");
  const hash = createHash("sha256");
  let peak = 0;
  const base = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss - base);
  }, 20);
  const out = await postUpload(first, 100_000_000, {
    declareLength: true,
    name: "catalogue.pdf",
    type: "application/pdf",
    onChunk: (chunk) => hash.update(chunk),
  });
  clearInterval(sampler);
  expect(out.status, out.body.slice(0, 300)).toBe(201);
  const media = JSON.parse(out.body).data;
  expect(media).toMatchObject({ kind: "document", fileSize: 100_000_000, sha256: hash.digest("hex") });
  expect(peak).toBeLessThan(64 * 1024 * 1024);

  const got = await fetch(`http://127.0.0.1:${port}/api/v3/media/${media.mediaId}/content`, {
    headers: { Authorization: `Bearer ${c.globalToken}`, Range: "bytes=99999990-" },
  });
  expect(got.status).toBe(206);
  expect(got.headers.get("content-range")).toBe("bytes 99999990-99999999/100000000");
  expect((await got.arrayBuffer()).byteLength).toBe(10);
  const whole = await fetch(`http://127.0.0.1:${port}/api/v3/media/${media.mediaId}/content`, {
    headers: { Authorization: `Bearer ${c.globalToken}` },
  });
  const back = createHash("sha256");
  let size = 0;
  for await (const chunk of whole.body as unknown as AsyncIterable<Uint8Array>) {
    back.update(chunk);
    size += chunk.byteLength;
  }
  expect(size).toBe(100_000_000);
  expect(back.digest("hex")).toBe(media.sha256);
}, 120_000);
