// Bundles the server-side entry points (the supervisor, the worker, the operator CLI, the
// lean API server) into compiled JavaScript under .build/server/, so production runs no
// transpiler (README
// "Scripts"). esbuild (a dependency in package.json) resolves the `@/` alias from tsconfig.json;
// packages stay in node_modules (imported at run time, as with tsx). The bundle is rebuilt
// when any of its inputs (listed in inputs.json from esbuild's metafile) changed.
import fs from "node:fs";
import path from "node:path";

export const ENTRIES = ["supervisor", "worker", "cli", "serve-api"];
const OUT = ".build/server";

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
  const result = await esbuild.build({
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
      {
        name: "packages-external",
        setup(build) {
          // Bare package imports stay imports; `@/…` (the project) and relative paths are bundled.
          build.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@/") || path.isAbsolute(args.path) ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const inputs = [...Object.keys(result.metafile.inputs), "package.json", "tsconfig.json", "scripts/build-server.mjs"];
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
