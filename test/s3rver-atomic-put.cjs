// s3rver (test/s3-server.ts) with S3's own rule for a PUT: the object is replaced whole, and the
// answer comes once it is stored. s3rver 3.7 writes a PUT straight into the object's file and
// answers when the body has passed through its hash, before that file is written out: on a
// loaded machine a read right after the answer, or a second PUT of the same key meanwhile, met a
// file half written (lib/storage/storage-contract.test.ts "a put over an existing object", CI of
// 2026-11-30). Here a PUT is written to a file of its own, closed, then renamed over the object
// (atomic on one filesystem: the staging file sits in the same temporary folder as the data).
// Run as s3rver's own command line, with the same arguments.
const crypto = require("node:crypto");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { Readable, Transform } = require("node:stream");
const { pipeline } = require("node:stream/promises");

const root = path.dirname(require.resolve("s3rver/package.json"));
const FilesystemStore = require(path.join(root, "lib/stores/filesystem.js"));

FilesystemStore.prototype.putObject = async function putObject(object) {
  const objectPath = this.getResourcePath(object.bucket, object.key, "object");
  await fs.promises.mkdir(path.dirname(objectPath), { recursive: true });
  const staged = path.join(os.tmpdir(), `s3rver-put-${process.pid}-${crypto.randomBytes(8).toString("hex")}`);
  const md5 = crypto.createHash("md5");
  let size = 0;
  const counted = new Transform({
    transform(chunk, encoding, done) {
      md5.update(chunk, encoding);
      size += chunk.length;
      done(null, chunk);
    },
  });
  const source = Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content;
  try {
    // Resolves once the staging file is closed.
    await pipeline(source, counted, fs.createWriteStream(staged));
    await fs.promises.rename(staged, objectPath);
  } catch (error) {
    await fs.promises.rm(staged, { force: true });
    throw error;
  }
  const digest = md5.digest("hex");
  await this.putMetadata(object.bucket, object.key, object.metadata, digest);
  return { size, md5: digest };
};

require(path.join(root, "bin/s3rver.js"));
