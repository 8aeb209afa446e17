// The media store of this process (docs/media.md "Storage"): S3-compatible object storage
// when MEDIA_S3_BUCKET is set, else the local folder DATA_DIR/media. One per process.
import path from "node:path";
import { env } from "@/lib/core/env";
import { createLocalStore } from "./local-store";
import type { ObjectStore } from "./object-store";
import { createS3Store } from "./s3-store";

export type { ObjectStore } from "./object-store";

const g = globalThis as { __switchboardStorage?: ObjectStore };

export function storageFromEnv(): ObjectStore {
  const e = env();
  if (!e.MEDIA_S3_BUCKET) return createLocalStore(path.join(e.DATA_DIR, "media"));
  const keys =
    e.MEDIA_S3_ACCESS_KEY_ID && e.MEDIA_S3_SECRET_ACCESS_KEY
      ? { accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID, secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY }
      : undefined;
  return createS3Store({
    bucket: e.MEDIA_S3_BUCKET,
    region: e.MEDIA_S3_REGION,
    endpoint: e.MEDIA_S3_ENDPOINT,
    forcePathStyle: e.MEDIA_S3_FORCE_PATH_STYLE ?? e.MEDIA_S3_ENDPOINT !== undefined,
    credentials: keys,
  });
}

export function getStorage(): ObjectStore {
  g.__switchboardStorage ??= storageFromEnv();
  return g.__switchboardStorage;
}

/** Replaces the store (tests that run both engines, benchmarks); undefined: from the environment again. */
export function setStorage(store: ObjectStore | undefined): void {
  g.__switchboardStorage = store;
}

/** Where files wait while they stream in, are checked and hashed, before they are stored. */
export function stagingDir(): string {
  return path.join(env().DATA_DIR, "media-staging");
}
