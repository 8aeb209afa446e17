// `npm run cli` / `npm run worker` / `npm run serve:api`: runs the compiled bundle (scripts/build-server.mjs),
// building it first on a fresh clone or after a source change (no transpiler at run time).
// Usage: node scripts/run.mjs <supervisor|worker|cli|serve-api> [args...]
import module from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { ENTRIES, ensureServerBuild } from "./build-server.mjs";

// V8 keeps the compiled code of the bundle and of node_modules between runs (Node >= 22.1).
module.enableCompileCache?.();
process.setSourceMapsEnabled(true); // stack traces name the TypeScript sources
const entry = process.argv[2];
if (!ENTRIES.includes(entry)) {
  console.error(`usage: node scripts/run.mjs <${ENTRIES.join("|")}> [args...]`);
  process.exit(2);
}
const root = path.resolve(import.meta.dirname, "..");
const bundle = await ensureServerBuild(root, entry);
process.argv.splice(2, 1); // the entry sees its own arguments, as under tsx
await import(pathToFileURL(bundle).href);
