// The compiled server bundle (scripts/build-server.mjs, docs/architecture.md "Compiled server code"): once
// built it is not rebuilt at every start, and its Prisma client reads the query compiler from
// the .wasm file written beside it; the bundled operator CLI answers through it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { workerFile } from "@/lib/domains/chatbots/rule-pool";
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

  it("runs the chatbot rule worker from the bundle, without a transpiler", () => {
    buildServerBundle();
    const worker = path.join(out, "chatbot-rule-worker.mjs");
    expect(fs.existsSync(worker)).toBe(true);
    // What rule-pool.ts does in the bundle: a piscina task on the sibling file, no tsx loaded.
    const probe = `
      import { Piscina } from "piscina";
      import { MessageChannel } from "node:worker_threads";
      const pool = new Piscina({ filename: ${JSON.stringify(`file://${worker}`)}, minThreads: 0, maxThreads: 1 });
      const { port1, port2 } = new MessageChannel();
      let started = false;
      port1.once("message", () => { started = true; });
      const bot = { rules: [{ match: { type: "regex", value: "order\\\\s*#?\\\\d+" }, reply: { type: "text", text: "on its way" } }] };
      const decision = await pool.run({ bot, text: "where is order #42", now: Date.now(), started: port2 }, { transferList: [port2] });
      port1.close();
      await pool.destroy();
      console.log(JSON.stringify({ ...decision, started }));
    `;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", probe], { cwd: root, encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toMatchObject({ matchedRule: 0, reply: { text: "on its way" }, started: true });
    // The pool finds it beside whichever chunk of the bundle starts it.
    expect(workerFile("file:///srv/app/.build/server/chunk-AB12.mjs")).toBe(
      "file:///srv/app/.build/server/chatbot-rule-worker.mjs",
    );
    expect(workerFile("file:///srv/app/lib/domains/chatbots/rule-pool.ts")).toMatch(
      /\/lib\/domains\/chatbots\/rule-worker-source\.mjs$/,
    );
  });
});
