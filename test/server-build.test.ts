// The compiled server bundle (scripts/build-server.mjs, docs/architecture.md "Compiled server code"): once
// built it is not rebuilt at every start, and its Prisma client reads the query compiler from
// the .wasm file written beside it; the bundled operator CLI answers through it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { buildServerBundle } from "./server-processes";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, ".build/server");

function bundledCli(...args: string[]) {
  return spawnSync(process.execPath, [path.join(out, "cli.mjs"), ...args, "--json"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: inject("databaseUrl"), LOG_LEVEL: "silent" },
  });
}

describe("server bundle", { timeout: 120_000 }, () => {
  it("lists only files as its inputs, so a built bundle is not stale", () => {
    buildServerBundle();
    const inputs = JSON.parse(fs.readFileSync(path.join(out, "inputs.json"), "utf8")) as string[];
    expect(inputs.length).toBeGreaterThan(10);
    // A non-file input (a plugin's virtual module) has no mtime and would make every start rebuild.
    expect(inputs.filter((file) => !fs.existsSync(path.join(root, file)))).toEqual([]);
  });

  it("runs a Prisma command with the query compiler read from its .wasm file", () => {
    buildServerBundle();
    const wasm = fs.readFileSync(path.join(out, "query-compiler.wasm"));
    expect([...wasm.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]); // "\0asm"
    const created = bundledCli("customer:create", "--name", "Bundle Probe");
    expect(created.stderr).toBe("");
    expect(created.status).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: "Bundle Probe", customerId: expect.any(String) });
    const dead = bundledCli("callbacks:dead", "--limit", "1");
    expect(dead.status).toBe(0);
    expect(JSON.parse(dead.stdout)).toMatchObject({ total: expect.any(Number), callbacks: expect.any(Array) });
  });
});
