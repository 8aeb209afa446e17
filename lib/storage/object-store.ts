// The one interface of file storage (docs/media.md "Storage"): two engines implement it, the
// local file system (local-store.ts, the default) and S3-compatible object storage
// (s3-store.ts). Objects are whole files under a key chosen by the caller; bytes always
// travel as streams, never as whole-file buffers.
import type { Readable } from "node:stream";

/** Inclusive byte offsets, as an HTTP Range names them. */
export type ByteRange = { start: number; end: number };

export type ObjectStore = {
  readonly engine: "local" | "s3";
  /**
   * Stores the finished file at `file` under `key` (replacing an object there: keys are
   * content addresses, so a replacement holds the same bytes). The engine may move the file;
   * the caller removes what is left. Resolves once the object is readable.
   */
  putFile(key: string, file: string, info: { contentType: string; size: number }): Promise<void>;
  /** The object's size, or null when there is none. */
  stat(key: string): Promise<{ size: number } | null>;
  /** The object's bytes (or one range of them) as a stream, or null when there is none. */
  read(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Removes the object; removing one that is not there is no error. */
  remove(key: string): Promise<void>;
};

/** Keys are relative paths of letters, digits, `_`, `-` and `.` segments (no `.` or `..`). */
const KEY = /^(?!.*(^|\/)\.{1,2}(\/|$))[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/;

/** Refuses a key outside the shape both engines store alike (and a path that could leave the root). */
export function assertKey(key: string): void {
  if (key.length > 512 || !KEY.test(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}
