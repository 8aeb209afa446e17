import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { TIMED_FILES } from "./test/timed-files.mjs";

// Each test file that records API answers (test/api-answers.ts) leaves what it covered here;
// the "answer coverage" project reads it after every other file has run. One folder per run.
const answersDir = path.join(os.tmpdir(), `switchboard-api-answers-${process.pid}`);
process.env.API_ANSWERS_DIR = answersDir;
const ANSWER_COVERAGE = "test/api-answer-coverage.test.ts";
// Files that never touch the suite's database do the same work in both runs: the PGlite run
// has them. (Each makes its own databases, trees or documents.)
const DATABASE_FREE = [
  "test/migrations-drift.test.ts",
  "test/import-boundaries.test.ts",
  "test/unused-exports.test.ts",
  "lib/api/openapi-examples.test.ts",
  "lib/db/socket-auth.test.ts",
  // The embedded database's own queue (each test starts its own PGlite).
  "lib/db/pglite-queue.test.ts",
];
// Several server processes on one database need the PostgreSQL server (docs/deployment.md):
// the scale-out test belongs to the TEST_DB=postgres run only.
const SUITE_EXCLUDE = [
  "**/node_modules/**",
  ANSWER_COVERAGE,
  ...(process.env.TEST_DB === "postgres" ? DATABASE_FREE : ["test/scale-out.test.ts"]),
  // npm test's PostgreSQL lane leaves the timed files to a run of their own after the lanes (test/timed-files.mjs).
  ...(process.env.SWITCHBOARD_TIMED_LATER === "1" ? TIMED_FILES : []),
];

const SUITE_INCLUDE = [
  "lib/**/*.test.ts",
  "scripts/**/*.test.ts",
  "test/**/*.test.ts",
  "app/**/*.test.ts",
  "components/**/*.test.ts",
];

/**
 * Test files that change what every later file in the process would meet, and cannot put it
 * back: a module mock (it applies to the modules a file loads after it, and a shared process has
 * loaded the app's already), fake timers and stubbed globals (a timer or a fetch of background
 * work still running from an earlier file, such as the simulator's status callbacks, is caught
 * by them; a timer set while the clock is fake never fires once it is real: CI of 2026-11-30,
 * the callback wake-ups of a whole process stopped so). Each runs in a process of its own. Every
 * other file shares its worker's modules with the files before it (isolate: false), which saves
 * each file ~2.5 s of CPU spent loading the app's modules again. A shared file that changes the
 * environment or the simulator's options puts them back in its own hooks; test/setup.ts fails a
 * file that does not, and restores them for the files after it (docs/development.md "Tests").
 */
const OWN_PROCESS = /\bvi\.(mock|doMock|hoisted|useFakeTimers|stubGlobal|stubEnv)\(/;

function testFiles(): string[] {
  const dirs = ["lib", "scripts", "test", "app", "components"];
  return dirs.flatMap((dir) =>
    fs.existsSync(dir)
      ? (fs.readdirSync(dir, { recursive: true }) as string[])
          .filter((f) => f.endsWith(".test.ts") && !f.includes("node_modules"))
          .map((f) => path.join(dir, f))
      : [],
  );
}
const ISOLATED = testFiles().filter((f) => OWN_PROCESS.test(fs.readFileSync(f, "utf8")));
/**
 * Files that call the dashboard's handlers, server actions or pages as Next.js would during a
 * request: Next's request context (next/headers, next-auth's session, next/cache, the signed-in
 * principal) is one double, test/next-request-double.ts, the same in every such file
 * (test/setup-next-request.ts), so they share one process of their own.
 */
const USES_NEXT_REQUEST = /from "[^"]*\/next-request-double"/;
const NEXT_REQUEST = testFiles().filter((f) => USES_NEXT_REQUEST.test(fs.readFileSync(f, "utf8")));
// The double is in place only in that project: a file that also needs a process of its own (a
// module mock, fake timers) would set a double nothing reads. Said here, not as a test's failure
// far from the cause.
for (const f of NEXT_REQUEST.filter((f) => ISOLATED.includes(f))) {
  throw new Error(
    `${f}: uses test/next-request-double.ts and needs a process of its own (OWN_PROCESS); it cannot be both`,
  );
}

// TEST_DB=pglite (default) or postgres: the same suite runs against both.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    pool: "forks",
    // Transformed modules kept on disk (node_modules/.experimental-vitest-cache), keyed by
    // content: each isolated file's process and the second suite reuse the first's
    // transforms instead of compiling the app's modules again (about a fifth of an isolated
    // file's CPU; docs/development.md "Tests").
    experimental: { fsModuleCache: true },
    // A test's limit, not its expected time: CI's lanes share two cores, and a test that starts
    // processes or a database of its own took over 30 s there on a slow day (2026-11-30).
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: "silent",
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      APP_ENCRYPTION_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
      NEXTAUTH_SECRET: "test-nextauth-secret-0123456789",
      PROVIDER_APP_SECRET: "test_app_secret_do_not_use",
      PROVIDER_VERIFY_TOKEN: "test_verify_token",
      RATE_LIMIT_GLOBAL: "100000",
      RATE_LIMIT_SEND_IP: "100000",
      RATE_LIMIT_SEND_TOKEN: "100000",
      RATE_LIMIT_REPORTS_IP: "100000",
      // Simulated contacts answer only where a test asks them to (sim().options.replyRate).
      SIMULATOR_REPLY_RATE: "0",
      // No random marketing-cap failures (131049): a test that wants them sets sim().options.marketingCapRate.
      SIMULATOR_MARKETING_CAP_RATE: "0",
      // Simulated contacts answer with text; a test that wants photos sets sim().options.imageReplyRate.
      SIMULATOR_IMAGE_REPLY_RATE: "0",
      // Nor taps, reactions or quotes: a test that wants them sets sim().options.tapRate (reactionRate, quoteRate).
      SIMULATOR_TAP_RATE: "0",
      SIMULATOR_REACTION_RATE: "0",
      SIMULATOR_QUOTE_RATE: "0",
      API_ANSWERS_DIR: answersDir,
      // The AWS SDK's notice that its 2027 releases need Node 22 (the S3 engine's tests), once per process.
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
    },
    projects: [
      {
        extends: true,
        test: {
          name: "suite",
          include: SUITE_INCLUDE,
          exclude: [...SUITE_EXCLUDE, ...ISOLATED, ...NEXT_REQUEST],
          isolate: false,
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/setup.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "suite (next request)",
          include: NEXT_REQUEST.length ? NEXT_REQUEST : ["no-such-file"],
          exclude: SUITE_EXCLUDE,
          isolate: false,
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/setup.ts", "test/setup-next-request.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "suite (isolated)",
          include: ISOLATED.length ? ISOLATED : ["no-such-file"],
          exclude: SUITE_EXCLUDE,
          globalSetup: ["test/global-setup.ts"],
          setupFiles: ["test/setup.ts"],
          sequence: { groupOrder: 0 },
        },
      },
      {
        // After every other file: reads the answers they recorded (no database).
        extends: true,
        test: { name: "answer coverage", include: [ANSWER_COVERAGE], sequence: { groupOrder: 1 } },
      },
    ],
  },
});
