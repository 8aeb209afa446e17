// The unused-export check (knip with the project's knip.json; docs/architecture.md "Dead
// code"): a small tree laid out like the project fails on exactly its planted dead code (an
// unused export and type, an unused export of a lazily loaded CLI command, a file nothing
// imports) and not on what is used (by an entry, by a test, inside its own file, through
// the command table's lazy import()). The project's own tree passes in the lint step.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const repo = path.resolve(import.meta.dirname, "..");

const TREE: Record<string, string> = {
  "package.json": JSON.stringify({ name: "planted", private: true, type: "module" }),
  "tsconfig.json": JSON.stringify({
    compilerOptions: { module: "esnext", moduleResolution: "bundler", paths: { "@/*": ["./*"] } },
  }),
  "scripts/main.ts":
    'import { used } from "@/lib/a";\nimport { COMMANDS } from "@/lib/cli/commands";\nconsole.log(used, COMMANDS);\n',
  "lib/a.ts": [
    "const internal = 1;",
    "export const used = internal;",
    "export const onlyInTest = 2;",
    "export const unusedValue = 3;",
    "export type UnusedType = { a: 1 };",
    "export const usedInFile = 4;",
    "console.log(usedInFile);",
  ].join("\n"),
  "lib/a.test.ts": 'import { onlyInTest } from "./a";\nconsole.log(onlyInTest);\n',
  "lib/cli/commands.ts": 'export const COMMANDS = [{ load: () => import("./thing").then((m) => m.run) }];\n',
  "lib/cli/thing.ts": "export const run = 1;\nexport const unusedCommandExport = 2;\n",
  "lib/orphan.ts": "export const orphan = 1;\n",
};

type Report = { issues: { file: string; files: unknown[]; exports: { name: string }[]; types: { name: string }[] }[] };

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "knip-planted-"));
  fs.copyFileSync(path.join(repo, "knip.json"), path.join(dir, "knip.json"));
  for (const [file, text] of Object.entries(TREE)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the unused-export check", () => {
  it("fails on exactly the planted dead code", () => {
    const knip = spawnSync(
      process.execPath,
      [
        path.join(repo, "node_modules/knip/bin/knip.js"),
        "--directory",
        dir,
        // The same selection as `npm run lint:exports`.
        ...JSON.parse(fs.readFileSync(path.join(repo, "package.json"), "utf8"))
          .scripts["lint:exports"].split(" ")
          .slice(1),
        "--reporter",
        "json",
      ],
      { cwd: dir, encoding: "utf8" },
    );
    expect(knip.status).toBe(1);
    const report = JSON.parse(knip.stdout) as Report;
    const found = report.issues.flatMap((i) => [
      ...i.files.map(() => `file ${i.file}`),
      ...i.exports.map((e) => `export ${i.file}:${e.name}`),
      ...i.types.map((t) => `type ${i.file}:${t.name}`),
    ]);
    expect(found.sort()).toEqual([
      "export lib/a.ts:unusedValue",
      "export lib/cli/thing.ts:unusedCommandExport",
      "file lib/orphan.ts",
      "type lib/a.ts:UnusedType",
    ]);
  });
});
