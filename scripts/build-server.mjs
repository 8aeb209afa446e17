// Bundles the server-side entry points (the supervisor, the worker, the operator CLI, the
// lean API server) into compiled JavaScript under .build/server/, so production runs no
// transpiler (docs/architecture.md "Compiled server code"). esbuild (a dependency in package.json) resolves the `@/` alias from tsconfig.json;
// packages stay in node_modules (imported at run time, as with tsx). The bundle is rebuilt
// when any of its inputs (listed in inputs.json from esbuild's metafile) changed.
import fs from "node:fs";
import path from "node:path";

export const ENTRIES = ["supervisor", "worker", "cli", "serve-api"];
const OUT = ".build/server";

// The Prisma client's query compiler is WebAssembly shipped as a 2.5 MB JavaScript string
// (base64) that every process parses before its first query (~60 ms of CPU in every
// command that uses Prisma, e.g. `token:create`; docs/benchmarks.md "the operator CLI
// before and after"). The bundle reads the same bytes from a file written beside it instead.
// Node 20 cannot cache the compiled module itself (v8.serialize keeps no WebAssembly code).
const QUERY_COMPILER_BASE64 = "@prisma/client/runtime/query_compiler_bg.postgresql.wasm-base64.mjs";
const QUERY_COMPILER_FILE = "query-compiler.wasm";
/** Whether the last build imports it (a Prisma version without that file needs no copy). */
let queryCompilerUsed = false;
const queryCompilerFromFile = {
  name: "prisma-query-compiler-file",
  setup(build) {
    build.onResolve(
      { filter: /^@prisma\/client\/runtime\/query_compiler_bg\.postgresql\.wasm-base64\.mjs$/ },
      (args) => {
        queryCompilerUsed = true;
        return { path: args.path, namespace: "query-compiler-file" };
      },
    );
    build.onLoad({ filter: /.*/, namespace: "query-compiler-file" }, () => ({
      // The generated client decodes `wasm` from base64: encoding 2 MB costs ~2 ms.
      contents: `import fs from "node:fs";
export const wasm = fs.readFileSync(new URL("./${QUERY_COMPILER_FILE}", import.meta.url)).toString("base64");`,
      loader: "js",
    }));
  },
};

const mtime = (p) => {
  try {
    return fs.statSync(p).mtimeMs;
  } catch {
    return Number.POSITIVE_INFINITY; // a vanished input: rebuild
  }
};

/** Whether .build/server is missing or older than one of the files it was built from. */
export function serverBuildStale(root) {
  const inputsFile = path.join(root, OUT, "inputs.json");
  if (!fs.existsSync(inputsFile)) return true;
  const built = fs.statSync(inputsFile).mtimeMs;
  const inputs = JSON.parse(fs.readFileSync(inputsFile, "utf8"));
  if (ENTRIES.some((e) => !fs.existsSync(path.join(root, OUT, `${e}.mjs`)))) return true;
  return inputs.some((file) => mtime(path.join(root, file)) > built);
}

export async function buildServer(root) {
  const esbuild = await import("esbuild");
  const outdir = path.join(root, OUT);
  fs.rmSync(outdir, { recursive: true, force: true });
  queryCompilerUsed = false;
  const result = await esbuild
    .build({
      absWorkingDir: root,
      entryPoints: Object.fromEntries(ENTRIES.map((e) => [e, `scripts/${e}.ts`])),
      outdir,
      outExtension: { ".js": ".mjs" },
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node20",
      sourcemap: true,
      metafile: true,
      logLevel: "warning",
      tsconfig: path.join(root, "tsconfig.json"),
      plugins: [
        queryCompilerFromFile,
        {
          name: "packages-external",
          setup(build) {
            // Bare package imports stay imports; `@/…` (the project) and relative paths are bundled.
            build.onResolve({ filter: /^[^./]/ }, (args) =>
              args.path.startsWith("@/") || path.isAbsolute(args.path)
                ? undefined
                : { path: args.path, external: true },
            );
          },
        },
      ],
    })
    // esbuild's service process would otherwise live as long as the caller (npm start's parent),
    // answering pings: CPU an idle app should not spend (docs/benchmarks.md "Idle CPU").
    .finally(() => esbuild.stop());
  if (queryCompilerUsed) {
    const { wasm } = await import(QUERY_COMPILER_BASE64);
    fs.writeFileSync(path.join(outdir, QUERY_COMPILER_FILE), Buffer.from(wasm, "base64"));
  }
  // Files only: the query compiler's stand-in module is no file (package.json pins its version).
  const files = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith("query-compiler-file:"));
  const inputs = [...files, "package.json", "tsconfig.json", "scripts/build-server.mjs"];
  fs.writeFileSync(path.join(outdir, "inputs.json"), JSON.stringify(inputs));
  return outdir;
}

/** Builds when stale; returns the path of one entry's bundle. */
export async function ensureServerBuild(root, entry) {
  if (serverBuildStale(root)) await buildServer(root);
  return path.join(root, OUT, `${entry}.mjs`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, "..");
  const started = Date.now();
  await buildServer(root);
  console.log(`Built ${ENTRIES.join(", ")} into ${OUT} in ${Date.now() - started} ms`);
}
