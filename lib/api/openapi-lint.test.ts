// The document lints clean with @redocly/cli (redocly.yaml: the recommended rules):
// zero errors and zero warnings.
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";
import { routes } from "./route-table";

it("redocly lint: 0 errors, 0 warnings", { timeout: 120_000 }, async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "openapi-")), "openapi.json");
  writeFileSync(file, JSON.stringify(buildOpenApiDocument(routes, "https://switchboard.invalid")));
  const bin = path.resolve("node_modules/.bin/redocly");
  const run = await promisify(execFile)(
    bin,
    ["lint", file, "--config", path.resolve("redocly.yaml"), "--format=json"],
    {
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const report = JSON.parse(run.stdout) as { problems: { ruleId: string; severity: string; message: string }[] };
  expect(report.problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`)).toEqual([]);
});
