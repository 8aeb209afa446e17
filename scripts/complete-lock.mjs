// npm run lock:complete: puts back the other platforms' optional packages that npm 11 here
// leaves out of package-lock.json (biome's CLI, tailwind's oxide and next's swc builds for
// macOS, Windows, Android, musl...), without which `npm ci` refuses the lock ("Missing:
// @biomejs/cli-android-arm64@ from lock file"). Each missing optionalDependency gets the
// entry npm would write (version, os, cpu, libc, optional, dev) so `npm ci` on this platform
// skips it and on its own platform fetches it. The platform comes from the package's name
// (these packages are named <os>-<cpu>[-libc]; this registry answers 404 for some of them,
// so their manifests cannot be read here). Run it after `npm install <package>`; CI checks
// the result with `npm ci` (scripts/test.mjs, "lock file").
import fs from "node:fs";
import path from "node:path";

const OS = ["android", "darwin", "linux", "win32", "freebsd", "openbsd", "sunos", "aix"];
const CPU = { arm64: "arm64", x64: "x64", arm: "arm", ia32: "ia32", wasm32: "wasm32", ppc64: "ppc64", s390x: "s390x" };

/** os / cpu / libc of a platform package, from its name (undefined: not a platform name). */
export function platformOf(name) {
  const tokens = name.split("/").pop().split("-");
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.map((t) => CPU[t]).find(Boolean);
  if (!cpu) return undefined;
  if (cpu === "wasm32") return { cpu: [cpu] };
  if (!os) return undefined;
  const entry = { os: [os], cpu: [cpu] };
  if (os === "linux") entry.libc = tokens.includes("musl") ? ["musl"] : ["glibc"];
  return entry;
}

export function completeLock(lock) {
  const added = [];
  const unknown = [];
  for (const [key, pkg] of Object.entries(lock.packages ?? {})) {
    for (const [name, version] of Object.entries(pkg.optionalDependencies ?? {})) {
      // Where npm would place it: beside the parent at the top, or nested under it.
      const top = `node_modules/${name}`;
      const nested = `${key}/node_modules/${name}`;
      if (lock.packages[top] || lock.packages[nested]) continue;
      const platform = platformOf(name);
      if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(version)) {
        unknown.push(`${name}@${version} (optional dependency of ${key || "the project"})`);
        continue;
      }
      lock.packages[top] = {
        version,
        ...(pkg.dev ? { dev: true } : {}),
        ...(pkg.devOptional ? { devOptional: true } : {}),
        ...platform,
        optional: true,
      };
      added.push(`${name}@${version}`);
    }
  }
  // npm keeps the packages map sorted by path.
  lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { added, unknown };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = path.resolve(import.meta.dirname, "../package-lock.json");
  const lock = JSON.parse(fs.readFileSync(file, "utf8"));
  const { added, unknown } = completeLock(lock);
  fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(added.length ? `Added ${added.length} lock entries: ${added.join(", ")}` : "The lock file is complete.");
  if (unknown.length) {
    console.error(`Cannot tell the platform of: ${unknown.join(", ")}`);
    process.exit(1);
  }
}
