// One database per test run: an in-memory PGlite served on a loopback socket, or a
// fresh database on the local PostgreSQL server (dropped afterwards). Migrations run once.
// Also per run: a data folder (the local media store, the simulator's files) and a real
// S3-protocol server (test/s3-server.ts) for the S3 storage engine.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { startEmbedded } from "../lib/db/embedded";
import { migrate } from "../lib/db/migrate";
import { S3_TEST_BUCKET, startS3Server } from "./s3-server";

const SERVER = process.env.TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

function assertLocal(url: string) {
  const host = new URL(url).hostname;
  if (!["127.0.0.1", "localhost", "::1", "[::1]"].includes(host)) {
    throw new Error(`Refusing to run tests against a non-local database (${host})`);
  }
}

type Run = { url: string; kind: string; dataDir: string; s3Endpoint: string; teardown: () => Promise<void> };

// The suite's projects (files sharing a process, and files isolated in their own: vitest.config.ts)
// are one run: the first to set up starts it, the last to tear down ends it.
const g = globalThis as { __switchboardTestRun?: Promise<Run>; __switchboardTestRunUsers?: number };

export default async function setup(project: TestProject) {
  g.__switchboardTestRunUsers = (g.__switchboardTestRunUsers ?? 0) + 1;
  g.__switchboardTestRun ??= startRun();
  const run = await g.__switchboardTestRun;
  process.env.DATABASE_URL = run.url;
  project.provide("databaseUrl", run.url);
  project.provide("databaseKind", run.kind);
  project.provide("dataDir", run.dataDir);
  project.provide("s3Endpoint", run.s3Endpoint);
  return async () => {
    g.__switchboardTestRunUsers = (g.__switchboardTestRunUsers ?? 1) - 1;
    if (g.__switchboardTestRunUsers === 0) {
      g.__switchboardTestRun = undefined;
      await run.teardown();
    }
  };
}

async function startRun(): Promise<Run> {
  // A fresh folder for the answers this run's test files record (test/api-answers.ts).
  const answers = process.env.API_ANSWERS_DIR;
  if (answers) fs.rmSync(answers, { recursive: true, force: true });
  const kind = process.env.TEST_DB ?? "pglite";
  let url: string;
  let teardown: () => Promise<void>;
  if (kind === "postgres") {
    assertLocal(SERVER);
    const name = `switchboard_test_${Date.now()}_${randomBytes(3).toString("hex")}`;
    const admin = new pg.Client({ connectionString: SERVER });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    const u = new URL(SERVER);
    u.pathname = `/${name}`;
    url = u.toString();
    teardown = async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    };
  } else {
    const server = await startEmbedded(undefined, { maxConnections: 64 });
    url = server.url;
    teardown = server.close;
  }
  await migrate(url);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-test-data-"));
  const s3 = await startS3Server([S3_TEST_BUCKET]);
  return {
    url,
    kind,
    dataDir,
    s3Endpoint: s3.endpoint,
    teardown: async () => {
      if (answers) fs.rmSync(answers, { recursive: true, force: true });
      await s3.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      await teardown();
    },
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: string;
    /** DATA_DIR of this run's test processes (the local media store, the simulator's files). */
    dataDir: string;
    /** This run's S3-protocol server (test/s3-server.ts). */
    s3Endpoint: string;
  }
}
