// Every operation of the OpenAPI document answered a success and an error across the suite
// (docs/openapi.md "Adding a route"). Each test file that calls recordApiAnswers() leaves a
// record of what its answers covered (test/api-answers.ts); this file runs after all the
// others (the "answer coverage" project of vitest.config.ts) and reads them together.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type AnswerRecord, apiDocument, RECORDER_NAME, readAnswerRecords } from "./api-answers";
import { missingCoverage } from "./openapi-answers";

const SOURCE_DIRS = ["lib", "test", "app", "components", "scripts"];
const THIS_FILE = path.join("test", "api-answer-coverage.test.ts");

/** The test files whose source calls the recorder: each must have left a record. */
function recordingFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "node_modules" && entry.name !== "generated") walk(full);
      else if (/\.test\.tsx?$/.test(entry.name) && full !== THIS_FILE) {
        if (fs.readFileSync(full, "utf8").includes(`${RECORDER_NAME}(`)) found.push(full);
      }
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return found.sort();
}

/** The lines the check fails with: operations without both answers, or files that left no record. */
function coverageProblems(records: readonly AnswerRecord[], recording: readonly string[]) {
  const ran = new Set(records.map((r) => r.file));
  return {
    notRun: recording.filter((file) => !ran.has(file)),
    missing: missingCoverage(
      apiDocument(),
      records.map((r) => r.coverage),
    ),
  };
}

describe("answer coverage across the suite", () => {
  it("every operation of the document answered a success and an error", (ctx) => {
    const { notRun, missing } = coverageProblems(readAnswerRecords(), recordingFiles());
    // A run of some files only (npx vitest run <files>) cannot see every answer.
    if (notRun.length > 0) ctx.skip(`part of the suite ran; without: ${notRun.join(", ")}`);
    expect(
      missing,
      `Each operation needs a 2xx and an error answer in a test file that calls ${RECORDER_NAME}() ` +
        "(its domain's API tests; docs/openapi.md, 'Adding a route')",
    ).toEqual([]);
  });

  it("a planted gap is named: an operation no file answered, a recording file that left no record", () => {
    const records: AnswerRecord[] = [
      { file: "a.test.ts", coverage: { "GET /api/{version}/webhooks": { success: true, error: false } } },
      { file: "b.test.ts", coverage: { "GET /api/{version}/webhooks": { success: false, error: true } } },
      { file: "c.test.ts", coverage: { "POST /api/{version}/webhooks": { success: false, error: true } } },
    ];
    const { notRun, missing } = coverageProblems(records, ["a.test.ts", "b.test.ts", "c.test.ts", "d.test.ts"]);
    expect(notRun).toEqual(["d.test.ts"]);
    // Success in one file and error in another cover the operation together.
    expect(missing).not.toContainEqual(expect.stringContaining("GET /api/{version}/webhooks:"));
    expect(missing).toContain("POST /api/{version}/webhooks: no success answer");
    expect(missing).toContain("GET /api/{version}/billing/messages: no success answer, no error answer");
  });
});
