// docs/configuration.md, written from the environment schema (ENV_GROUPS in
// lib/core/env.ts): each variable's description, default and accepted values.
// `npm run docs:configuration` writes it; `--check` (in `npm run lint`) fails when the
// file is not what the schema gives, naming the command that fixes it.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { ENV_GROUPS } from "@/lib/core/env";

export const DOC_PATH = path.join(import.meta.dirname, "..", "docs/configuration.md");

type JsonSchema = { type?: string; enum?: unknown[]; default?: unknown; description?: string; format?: string };

const HEADER = `# Configuration

<!-- Written by \`npm run docs:configuration\` from lib/core/env.ts; edit the schema's descriptions there. -->

Everything is optional for a local run. The variables are read and validated once, with zod,
in \`lib/core/env.ts\`; a missing or bad value stops start-up with a message that names it.
An empty value (\`NAME=\`) counts as unset. What several instances and workers on one
database must share: docs/deployment.md.
`;

/** What a variable accepts, from its input schema. */
function accepts(schema: JsonSchema): string {
  // An empty value counts as unset (parseEnv), so "" is not listed.
  if (schema.enum)
    return schema.enum
      .filter((v) => v !== "")
      .map((v) => `\`${String(v)}\``)
      .join(", ");
  if (schema.format === "uri") return "a URL";
  if (schema.type === "integer") return "an integer";
  if (schema.type === "number") return "a number";
  return "text";
}

/** A true/false variable: unset reads as false (`bool` in lib/core/env.ts). */
const isFlag = (schema: JsonSchema) => Boolean(schema.enum?.includes("true") && schema.enum.includes("false"));

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

export function renderConfigurationDoc(groups: Record<string, z.ZodObject> = ENV_GROUPS): string {
  const parts = [HEADER];
  for (const [title, group] of Object.entries(groups)) {
    const json = z.toJSONSchema(group, { io: "input", unrepresentable: "any" }) as {
      properties: Record<string, JsonSchema>;
    };
    parts.push(`\n## ${title}\n\n| variable | default | accepts | what it does |\n| --- | --- | --- | --- |\n`);
    for (const [name, schema] of Object.entries(json.properties)) {
      const description = group.shape[name]?.description ?? schema.description;
      if (!description) throw new Error(`${name} has no description in lib/core/env.ts`);
      const fallback =
        schema.default === undefined ? (isFlag(schema) ? "`false`" : "unset") : `\`${String(schema.default)}\``;
      parts.push(`| \`${name}\` | ${fallback} | ${cell(accepts(schema))} | ${cell(description)} |\n`);
    }
  }
  return parts.join("");
}

/** undefined when the file is current, else what is wrong. */
export function staleness(docPath = DOC_PATH, expected = renderConfigurationDoc()): string | undefined {
  const actual = fs.existsSync(docPath) ? fs.readFileSync(docPath, "utf8") : undefined;
  if (actual === expected) return undefined;
  return `${path.relative(process.cwd(), docPath)} is ${actual === undefined ? "missing" : "stale"}: run \`npm run docs:configuration\``;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  if (process.argv.includes("--check")) {
    const problem = staleness();
    if (problem) {
      console.error(`✘ ${problem}`);
      process.exit(1);
    }
    console.log("✔ docs/configuration.md matches lib/core/env.ts");
  } else {
    fs.writeFileSync(DOC_PATH, renderConfigurationDoc());
    console.log(`wrote ${path.relative(process.cwd(), DOC_PATH)}`);
  }
}
