// The S3 engine pointed at this run's S3-protocol server (test/global-setup.ts), for tests
// that run the media paths on both storage engines.
import path from "node:path";
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

/** Both engines, by name: `describe.each(STORAGE_ENGINES)` runs a file's media tests on each. */
export const STORAGE_ENGINES = [
  { engine: "local", store: () => createLocalStore(path.join(inject("dataDir"), "media")) },
  { engine: "s3", store: testS3Store },
] as const;
