// docs/configuration.md is written from the environment schema (scripts/configuration-doc.ts):
// the committed file is current, every variable the schema reads is in it with its
// description and default, and a stale or missing file fails the check naming the command.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ENV_GROUPS, EnvSchema } from "@/lib/core/env";
import { DOC_PATH, renderConfigurationDoc, staleness } from "./configuration-doc";

describe("docs/configuration.md", () => {
  it("is what the schema gives", () => {
    expect(staleness()).toBeUndefined();
  });

  it("lists every variable the schema reads, with its default and description", () => {
    const doc = fs.readFileSync(DOC_PATH, "utf8");
    const json = z.toJSONSchema(EnvSchema, { io: "input", unrepresentable: "any" }) as {
      properties: Record<string, unknown>;
    };
    const documented = Object.values(ENV_GROUPS).flatMap((g) => Object.keys(g.shape));
    // NEXT_PHASE is Next's own (set by `next build`), not a setting.
    expect(documented.sort()).toEqual(
      Object.keys(json.properties)
        .filter((k) => k !== "NEXT_PHASE")
        .sort(),
    );
    expect(doc).toContain("| `RATE_LIMIT_GLOBAL` | `600` | an integer | Requests per window and client IP");
    expect(doc).toContain("| `TRUST_PROXY` | `false` | `0`, `1`, `true`, `false` |");
  });

  it("fails when the schema changed and the doc did not, naming the command", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "configuration-doc-"));
    const file = path.join(dir, "copy-of-the-doc.txt");
    fs.copyFileSync(DOC_PATH, file);
    const changed = {
      ...ENV_GROUPS,
      Planted: z.object({ PLANTED_SETTING: z.string().optional().describe("A setting the doc does not have yet.") }),
    };
    expect(staleness(file, renderConfigurationDoc(changed))).toMatch(/stale: run `npm run docs:configuration`/);
    fs.writeFileSync(file, renderConfigurationDoc(changed));
    expect(staleness(file, renderConfigurationDoc(changed))).toBeUndefined();
    fs.rmSync(file);
    expect(staleness(file)).toMatch(/missing/);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a variable without a description", () => {
    const undocumented = { Planted: z.object({ PLANTED_SETTING: z.string().optional() }) };
    expect(() => renderConfigurationDoc(undocumented)).toThrow(/PLANTED_SETTING has no description/);
  });
});
