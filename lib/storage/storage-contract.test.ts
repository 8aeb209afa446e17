// The contract both storage engines keep (lib/storage/object-store.ts), run on each: the local
// folder and S3 through the AWS SDK against a real S3-protocol server process started by the
// test set-up (test/s3-server.ts), never a mock of the client.
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { STORAGE_ENGINES } from "@/test/s3-store";
import { assertKey } from "./object-store";

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "storage-contract-"));

/** A file of these bytes in a scratch folder (the engines may move it). */
function fileOf(bytes: Buffer): string {
  const file = path.join(scratch, randomBytes(8).toString("hex"));
  fs.writeFileSync(file, bytes);
  return file;
}

async function bytesOf(stream: Readable | null): Promise<Buffer> {
  if (!stream) throw new Error("no object");
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const newKey = () => `cust_${randomBytes(4).toString("hex")}/${randomBytes(32).toString("hex")}`;

describe.each(STORAGE_ENGINES)("the $engine engine", ({ engine, store: make }) => {
  const store = make();

  it("names itself", () => {
    expect(store.engine).toBe(engine);
  });

  it("stores a file and reads it back whole, and its size", async () => {
    const bytes = randomBytes(200_000);
    const key = newKey();
    await store.putFile(key, fileOf(bytes), { contentType: "application/pdf", size: bytes.length });
    expect(await store.stat(key)).toEqual({ size: bytes.length });
    expect((await bytesOf(await store.read(key))).equals(bytes)).toBe(true);
  });

  it("reads a range, inclusive at both ends, as an HTTP Range names it", async () => {
    const bytes = randomBytes(10_000);
    const key = newKey();
    await store.putFile(key, fileOf(bytes), { contentType: "image/png", size: bytes.length });
    expect((await bytesOf(await store.read(key, { start: 0, end: 0 }))).equals(bytes.subarray(0, 1))).toBe(true);
    expect((await bytesOf(await store.read(key, { start: 100, end: 4099 }))).equals(bytes.subarray(100, 4100))).toBe(
      true,
    );
    expect((await bytesOf(await store.read(key, { start: 9_990, end: 9_999 }))).equals(bytes.subarray(9_990))).toBe(
      true,
    );
  });

  it("an absent object: stat and read say null, remove is no error", async () => {
    const key = newKey();
    expect(await store.stat(key)).toBeNull();
    expect(await store.read(key)).toBeNull();
    expect(await store.read(key, { start: 0, end: 10 })).toBeNull();
    await expect(store.remove(key)).resolves.toBeUndefined();
  });

  it("a put over an existing object (the same content address) leaves it whole; remove removes it", async () => {
    const bytes = randomBytes(50_000);
    const key = newKey();
    const info = { contentType: "video/mp4", size: bytes.length };
    await Promise.all([store.putFile(key, fileOf(bytes), info), store.putFile(key, fileOf(bytes), info)]);
    await store.putFile(key, fileOf(bytes), info);
    expect((await bytesOf(await store.read(key))).equals(bytes)).toBe(true);
    await store.remove(key);
    expect(await store.stat(key)).toBeNull();
    expect(await store.read(key)).toBeNull();
  });

  it("streams a large file both ways (24 MB), byte for byte", async () => {
    const file = path.join(scratch, randomBytes(8).toString("hex"));
    const hash = createHash("sha256");
    const out = fs.openSync(file, "w");
    for (let i = 0; i < 24; i++) {
      const chunk = randomBytes(1_000_000);
      hash.update(chunk);
      fs.writeSync(out, chunk);
    }
    fs.closeSync(out);
    const key = newKey();
    await store.putFile(key, file, { contentType: "application/pdf", size: 24_000_000 });
    expect(await store.stat(key)).toEqual({ size: 24_000_000 });
    const back = createHash("sha256");
    let size = 0;
    for await (const chunk of (await store.read(key)) as Readable) {
      back.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    expect(size).toBe(24_000_000);
    expect(back.digest("hex")).toBe(hash.digest("hex"));
  });

  it("refuses keys that are not relative paths of plain segments", async () => {
    for (const key of ["../etc/passwd", "/abs/key", "a//b", "a/./b", "a/../b", "", "sp ace", "a/"]) {
      await expect(store.stat(key), key).rejects.toThrow(/Invalid storage key/);
    }
  });
});

it("the key rule keeps every key inside the root", () => {
  expect(() => assertKey("cust_1/ab/abcdef.0")).not.toThrow();
  expect(() => assertKey("..")).toThrow();
  expect(() => assertKey("x/..")).toThrow();
});
