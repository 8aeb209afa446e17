// A worker process killed with SIGKILL in the middle of 50 inbound media downloads loses no
// file and keeps none twice (docs/media.md "Inbound media"): the pending records committed
// with their messages, a dead worker's leases expire, and a restarted worker fetches the rest.
// Every file ends ready once: one record per message, one stored file with one reference each,
// the account's usage their sizes' sum.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import path from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { env } from "@/lib/core/env";
import { db } from "@/lib/db";
import { objectKey } from "@/lib/domains/media/objects";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { inboundMediaChange, inboundWamid } from "@/lib/domains/provider/simulator-inbound";
import { keepContactMedia } from "@/lib/domains/provider/simulator-media";
import { getStorage } from "@/lib/storage";
import { drainCallbacks, postSigned } from "./conversation-fixtures";
import { waitFor } from "./events-helpers";
import { createTestCustomer, uniquePhone } from "./factory";
import * as samples from "./media-samples";
import { buildServerBundle, workerArgs } from "./server-processes";

const root = path.resolve(import.meta.dirname, "..");
const children: ChildProcess[] = [];
const FILES = 50;

function spawnWorker(customerId: string): ChildProcess {
  // The compiled worker, as `npm run worker` runs it (test/server-processes.ts workerArgs).
  const child = spawn(process.execPath, workerArgs("--customer", customerId), {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: inject("databaseUrl"),
      // The folder this process keeps the simulator's files and the local store in.
      DATA_DIR: env().DATA_DIR,
      WORKER_POLL_MS: "50",
      // Each download takes 150 ms (the simulator as a slow provider); a claim's lease is 2 s.
      SIMULATOR_MEDIA_DELAY_MS: "150",
      MEDIA_FETCH_TIMEOUT_MS: "1000",
      MEDIA_FETCH_RETRY_BASE_MS: "50",
      LOG_LEVEL: process.env.DEBUG_CRASH ? "info" : "silent",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess) =>
  new Promise((resolve) =>
    child.exitCode === null && child.signalCode === null ? child.once("exit", resolve) : resolve(null),
  );

// The compiled bundle, built once when stale, before any worker starts.
beforeAll(() => buildServerBundle(), 180_000);

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

it("keeps every file once after the media worker is killed mid-download and restarted", async () => {
  const t = await createTestCustomer();
  const sender = {
    phoneNumberId: t.sender.phoneNumberId ?? "",
    phoneNumber: t.sender.phoneNumber,
    wabaId: t.sender.wabaId,
  };
  const files = await Promise.all(
    Array.from({ length: FILES }, async (_, i) => {
      const bytes = await samples.jpeg(40 + i, 30);
      const kept = await keepContactMedia(bytes, "image/jpeg");
      return { bytes, kept, messageId: inboundWamid() };
    }),
  );
  for (const f of files) {
    const change = inboundMediaChange(sender, {
      from: uniquePhone(),
      id: f.messageId,
      kind: "image",
      media: { id: f.kept.id, mime_type: "image/jpeg", sha256: f.kept.sha256 },
    });
    expect(await postSigned(envelopeFor([change]))).toBe(200);
  }
  await drainCallbacks();
  const scope = { customerId: t.customer.id, source: "inbound" };
  expect(await db.media.count({ where: { ...scope, status: "pending" } })).toBe(FILES);

  // The first worker fetches some, then dies in the middle of its downloads.
  const first = spawnWorker(t.customer.id);
  await waitFor(
    async () => (await db.media.count({ where: { ...scope, status: "ready" } })) >= 5,
    30_000,
    "the first files kept",
  );
  first.kill("SIGKILL");
  await exited(first);
  const readyAtKill = await db.media.count({ where: { ...scope, status: "ready" } });
  expect(readyAtKill).toBeLessThan(FILES);

  const second = spawnWorker(t.customer.id);
  const rows = await waitFor(
    async () => {
      const r = await db.media.findMany({ where: scope });
      return r.every((m) => m.status === "ready") && r;
    },
    60_000,
    "every file kept",
  );
  second.kill("SIGTERM");
  await exited(second);

  // One record per message, each ready with its own bytes.
  expect(rows).toHaveLength(FILES);
  const entries = await db.conversationMessage.findMany({
    where: { providerMessageId: { in: files.map((f) => f.messageId) } },
  });
  expect(new Set(entries.map((e) => e.mediaId))).toEqual(new Set(rows.map((r) => r.id)));
  const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
  const bySha = new Map(rows.map((r) => [r.sha256, r]));
  for (const f of files) {
    const row = bySha.get(sha(f.bytes));
    expect(row, f.kept.id).toMatchObject({ status: "ready", holdsObject: true, fileSize: f.bytes.length });
    expect(await getStorage().stat(objectKey(t.customer.id, sha(f.bytes)))).toEqual({ size: f.bytes.length });
  }
  // None kept twice: one reference per stored file, the usage their sizes' sum.
  const objects = await db.mediaObject.findMany({ where: { customerId: t.customer.id } });
  expect(objects).toHaveLength(FILES);
  expect(objects.every((o) => o.refs === 1)).toBe(true);
  const usage = await db.mediaUsage.findUniqueOrThrow({ where: { customerId: t.customer.id } });
  expect(Number(usage.bytes)).toBe(files.reduce((sum, f) => sum + f.bytes.length, 0));
}, 120_000);
