// Embedded mode's generated secrets: created once, kept, and completed for an older data folder.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, expect, it } from "vitest";
import { parseEnv } from "@/lib/core/env";
import { loadOrCreateLocalSecrets } from "./local-secrets";

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "swb-secrets-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

it("generates the provider secrets with the others, once, readable by its user only", () => {
  const dir = tempDir();
  const first = loadOrCreateLocalSecrets(dir);
  expect(first.PROVIDER_APP_SECRET.length).toBeGreaterThanOrEqual(32);
  expect(first.PROVIDER_VERIFY_TOKEN.length).toBeGreaterThanOrEqual(24);
  expect(first.PROVIDER_APP_SECRET).not.toMatch(/^dev_/);
  expect(loadOrCreateLocalSecrets(dir)).toEqual(first);
  expect(fs.statSync(path.join(dir, "secrets.json")).mode & 0o077).toBe(0);
  // What production start-up then sees: embedded mode in production starts.
  expect(() => parseEnv({ NODE_ENV: "production", ...first })).not.toThrow();
});

it("adds the provider secrets to a data folder from before they existed, keeping the rest", () => {
  const dir = tempDir();
  const old = { APP_ENCRYPTION_KEY: "ab".repeat(32), NEXTAUTH_SECRET: "an-older-nextauth-secret" };
  fs.writeFileSync(path.join(dir, "secrets.json"), JSON.stringify(old));
  const secrets = loadOrCreateLocalSecrets(dir);
  expect(secrets).toMatchObject(old);
  expect(secrets.PROVIDER_APP_SECRET).toBeTruthy();
  expect(loadOrCreateLocalSecrets(dir)).toEqual(secrets);
  expect(fs.statSync(path.join(dir, "secrets.json")).mode & 0o077).toBe(0);
});
