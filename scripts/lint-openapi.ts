// The OpenAPI lint (docs/openapi.md): builds the document from the route table
// (lib/api/openapi.ts), lints it with @redocly/cli (redocly.yaml: the recommended rules) and
// exits non-zero on any problem, warnings included. `npm run lint:openapi`; part of
// `npm run lint` and of the lint step of `npm test`.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { routes } from "@/lib/api/route-table";

type Problem = { ruleId: string; severity: string; message: string; location?: { pointer?: string }[] };

const root = path.resolve(import.meta.dirname, "..");
const dir = mkdtempSync(path.join(tmpdir(), "openapi-lint-"));
const file = path.join(dir, "openapi.json");
writeFileSync(file, JSON.stringify(buildOpenApiDocument(routes, "https://switchboard.invalid")));
let stdout: string;
try {
  stdout = execFileSync(
    path.join(root, "node_modules/.bin/redocly"),
    ["lint", file, "--config", path.join(root, "redocly.yaml"), "--format=json"],
    {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    },
  );
} catch (error) {
  // redocly exits non-zero on errors; its JSON report is still on stdout.
  stdout = (error as { stdout?: string }).stdout ?? "";
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const report = JSON.parse(stdout) as { problems: Problem[] };
for (const p of report.problems) {
  console.log(`${p.severity} ${p.ruleId}: ${p.message} (${p.location?.[0]?.pointer ?? ""})`);
}
console.log(`OpenAPI lint: ${report.problems.length} problem(s), errors and warnings alike fail`);
process.exit(report.problems.length === 0 ? 0 : 1);
