// A file's contacts sent in chunks of the bulk route's shape (docs/dashboard.md "Contact
// upload"), as ONE upload: every chunk carries the upload's id and its rows' numbers in the
// file, so a number repeated anywhere in the file is refused as it is inside one chunk, and
// the merged report names the file's rows, as one request of the whole file would.

/** Rows per request: small enough for steady progress, far below the route's 5,000. */
export const CHUNK_ROWS = 500;

type ChunkRowError = { index: number; error_code: string; message: string };
export type ChunkReport = {
  received: number;
  created: number;
  updated: number;
  failed: number;
  errors: ChunkRowError[];
};
/** A refused row: `index` counts the file's contacts from 0, `row` is its row in the file. */
export type FileRowError = ChunkRowError & { row: number };
export type UploadReport = Omit<ChunkReport, "errors"> & { errors: FileRowError[] };
export type UploadChunk = { contacts: unknown[]; uploadId: string; rowNumbers: number[] };

/** A fresh upload id (getRandomValues: randomUUID needs a secure context, a plain-HTTP dashboard has none). */
export const newUploadId = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");

export async function uploadInChunks({
  contacts,
  rowNumbers,
  uploadId,
  post,
  onProgress,
}: {
  contacts: unknown[];
  /** The file row of each contact (parse-file.ts). */
  rowNumbers: number[];
  /** A fresh id for this upload of the file. */
  uploadId: string;
  post: (chunk: UploadChunk) => Promise<ChunkReport>;
  onProgress?: (done: number) => void;
}): Promise<UploadReport> {
  const total: UploadReport = { received: 0, created: 0, updated: 0, failed: 0, errors: [] };
  for (let start = 0; start < contacts.length; start += CHUNK_ROWS) {
    const chunkRows = rowNumbers.slice(start, start + CHUNK_ROWS);
    const r = await post({ contacts: contacts.slice(start, start + CHUNK_ROWS), uploadId, rowNumbers: chunkRows });
    total.received += r.received;
    total.created += r.created;
    total.updated += r.updated;
    total.failed += r.failed;
    total.errors.push(...r.errors.map((e) => ({ ...e, index: e.index + start, row: chunkRows[e.index] ?? 0 })));
    onProgress?.(Math.min(contacts.length, start + CHUNK_ROWS) / contacts.length);
  }
  return total;
}
