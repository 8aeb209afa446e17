// A real S3-protocol server for the tests and benchmarks: the s3rver package run as its own
// process on 127.0.0.1 (a free port), its data in a temporary folder, with the buckets asked
// for. The S3 engine (lib/storage/s3-store.ts) talks to it over HTTP through the AWS SDK.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export type S3Server = { endpoint: string; close: () => Promise<void> };

/** The bucket of the test run's server (test/global-setup.ts). */
export const S3_TEST_BUCKET = "switchboard-media-test";

/** s3rver accepts any well-formed signature made with these. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

export async function startS3Server(buckets: string[]): Promise<S3Server> {
  // s3rver's command line, with S3's atomic PUT (test/s3rver-atomic-put.cjs).
  const bin = path.join(import.meta.dirname, "s3rver-atomic-put.cjs");
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-s3rver-"));
  const child = spawn(
    process.execPath,
    [
      bin,
      "-d",
      directory,
      "-a",
      "127.0.0.1",
      "-p",
      "0",
      "--silent",
      ...buckets.flatMap((b) => ["--configure-bucket", b]),
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      const m = /listening on [\d.]+:(\d+)/.exec(out);
      if (m?.[1]) resolve(Number(m[1]));
    });
    child.once("exit", (code) => reject(new Error(`s3rver exited with ${code} before listening: ${out}`)));
  });
  child.stdout.resume();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
