// The S3 engine pointed at this run's S3-protocol server (test/global-setup.ts), for tests
// that run the media paths on both storage engines.
import fs from "node:fs";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { inject } from "vitest";
import { createLocalStore } from "@/lib/storage/local-store";
import type { ObjectStore } from "@/lib/storage/object-store";
import { createS3Store } from "@/lib/storage/s3-store";
import { S3_TEST_BUCKET, S3RVER_CREDENTIALS } from "./s3-server";

export function testS3Store(): ObjectStore {
  return createS3Store({
    bucket: S3_TEST_BUCKET,
    region: "us-east-1",
    endpoint: inject("s3Endpoint"),
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
}

const localRoot = () => path.join(inject("dataDir"), "media");

/** An account's keys in the local folder, sorted (what `ls -R` shows under its folder). */
function localKeys(customerId: string): Promise<string[]> {
  const dir = path.join(localRoot(), customerId);
  if (!fs.existsSync(dir)) return Promise.resolve([]);
  const files = fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => fs.statSync(path.join(dir, name)).isFile());
  return Promise.resolve(files.map((name) => `${customerId}/${name.split(path.sep).join("/")}`).sort());
}

/** An account's keys in the run's bucket, sorted (ListObjectsV2 under its prefix, as `aws s3 ls` lists them). */
async function s3Keys(customerId: string): Promise<string[]> {
  const client = new S3Client({
    region: "us-east-1",
    endpoint: inject("s3Endpoint"),
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: S3_TEST_BUCKET, Prefix: `${customerId}/`, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  client.destroy();
  return keys.sort();
}

/**
 * Both engines, by name: `describe.each(STORAGE_ENGINES)` runs a file's media tests on each;
 * `keys(customerId)` lists the files the engine holds for an account, read from the folder or
 * the bucket itself rather than through the store (lib/domains/media/objects.ts objectKey).
 */
export const STORAGE_ENGINES = [
  { engine: "local", store: () => createLocalStore(localRoot()), keys: localKeys },
  { engine: "s3", store: testS3Store, keys: s3Keys },
] as const;
