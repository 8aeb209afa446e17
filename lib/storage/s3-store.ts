// The S3-compatible engine (AWS S3, MinIO, R2) through the AWS SDK: several instances share
// the files. A put streams the staged file with its length known (one PutObject, up to 5 GB,
// nothing buffered); a read streams the GetObject body, a range as S3's own Range.
import fs from "node:fs";
import { type Readable, Transform } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { assertKey, type ByteRange, type ObjectStore } from "./object-store";

export type S3Config = {
  bucket: string;
  region: string;
  /** A non-AWS server (MinIO, R2, s3rver); unset: AWS. */
  endpoint?: string;
  forcePathStyle: boolean;
  /** Unset: the SDK's default credential chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

const isMissing = (error: unknown) =>
  error instanceof S3ServiceException &&
  (error.name === "NotFound" || error.name === "NoSuchKey" || error.$metadata.httpStatusCode === 404);

/**
 * At most `length` bytes of `body`: a server that answers more than the range asked for
 * (s3rver answers bytes=0-0 with the whole object) never makes a reader get more.
 */
function firstBytes(body: Readable, length: number): Readable {
  let left = length;
  const cut = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (left === 0) {
        done();
        return;
      }
      const piece = chunk.length <= left ? chunk : chunk.subarray(0, left);
      left -= piece.length;
      this.push(piece);
      if (left === 0) {
        this.push(null);
        body.destroy();
      }
      done();
    },
  });
  body.on("error", (error) => cut.destroy(error));
  cut.on("close", () => body.destroy());
  return body.pipe(cut);
}

export function createS3Store(config: S3Config): ObjectStore {
  const client = new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
    forcePathStyle: config.forcePathStyle,
    ...(config.credentials ? { credentials: config.credentials } : {}),
    // Checksums only where S3 requires them: the default trailing CRC of streamed bodies
    // (aws-chunked encoding) is not spoken by every S3-compatible server.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
  });
  const Bucket = config.bucket;
  const keyOf = (key: string) => {
    assertKey(key);
    return key;
  };

  return {
    engine: "s3",

    async putFile(key, file, info) {
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: keyOf(key),
          Body: fs.createReadStream(file),
          ContentLength: info.size,
          ContentType: info.contentType,
        }),
      );
    },

    async stat(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(key) }));
        return { size: Number(head.ContentLength ?? 0) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async read(key, range?: ByteRange) {
      try {
        const got = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: keyOf(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        // In Node the SDK's body is the HTTP response itself: a Readable.
        const body = (got.Body as Readable | undefined) ?? null;
        return body && range ? firstBytes(body, range.end - range.start + 1) : body;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },

    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(key) }));
    },
  };
}
