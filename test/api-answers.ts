// Answer coverage, recorded by each domain's own API tests (docs/openapi.md "Adding a
// route"). A test file (or describe block) that calls recordApiAnswers() has every answer of
// the real router validated against the OpenAPI document when it ends, and leaves what it
// covered (per operation: a success? an error?) in a file of the run's answers folder.
// Vitest runs test files in separate processes, so no process sees every answer: the
// "answer coverage" project (vitest.config.ts) runs after all the others and checks, over
// every file's record, that each operation answered a success and an error.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect } from "vitest";
import { buildOpenApiDocument, type OpenApiDocument } from "@/lib/api/openapi";
import { routes } from "@/lib/api/route-table";
import { answerValidator, type Coverage, coverageOf, templateOf } from "./openapi-answers";
import { type RecordedAnswer, recordAnswers } from "./router-call";

/** The name test files call, which the coverage check looks for to know which files record. */
export const RECORDER_NAME = "recordApiAnswers";

/** One test file's record: its path (from the repository root) and what its answers covered. */
export type AnswerRecord = { file: string; coverage: Coverage };

/** Where this run's records go (vitest.config.ts sets it per run). */
function answersDir(): string {
  const dir = process.env.API_ANSWERS_DIR;
  if (!dir) throw new Error("API_ANSWERS_DIR is not set: run the tests through vitest.config.ts");
  return dir;
}

let document: OpenApiDocument | undefined;
export const apiDocument = () => {
  document ??= buildOpenApiDocument(routes);
  return document;
};

/**
 * Records the answers of the real router during this file (or the describe block it is
 * called in): when it ends, every answer of an operation of the document must be valid
 * against the document (its schema for that status), and what they covered is saved for
 * the suite-wide coverage check. Answers that are no operation (a wrong method, an unknown
 * path) are not the document's to describe, and are left out.
 */
export function recordApiAnswers(): void {
  const answers: RecordedAnswer[] = [];
  let stop = () => {};
  beforeAll(() => {
    stop = recordAnswers((a) => answers.push(a));
  });
  afterAll(() => {
    stop();
    const doc = apiDocument();
    const file = path.relative(process.cwd(), expect.getState().testPath ?? "unknown");
    const record: AnswerRecord = { file, coverage: coverageOf(doc, answers) };
    fs.mkdirSync(answersDir(), { recursive: true });
    fs.writeFileSync(
      path.join(answersDir(), `${path.basename(file)}-${process.pid}-${randomBytes(3).toString("hex")}.json`),
      JSON.stringify(record),
    );
    const validate = answerValidator(doc);
    const documented = answers.filter((a) => templateOf(doc, a.method, a.path) !== undefined);
    expect(documented.flatMap((a) => validate(a))).toEqual([]);
  });
}

/** Every record the run's test files left. */
export function readAnswerRecords(dir = answersDir()): AnswerRecord[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as AnswerRecord);
}
