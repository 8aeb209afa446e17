// Embedded mode generates its secrets once into the data folder (git-ignored), so a
// fresh clone runs without configuration. Server mode must set them in the environment.
// A data folder from before a secret existed gets it added on the next start.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export type LocalSecrets = {
  APP_ENCRYPTION_KEY: string;
  NEXTAUTH_SECRET: string;
  /** Verifies the provider's (here: the simulator's) callback signatures. */
  PROVIDER_APP_SECRET: string;
  PROVIDER_VERIFY_TOKEN: string;
};

const generators: { [K in keyof LocalSecrets]: () => string } = {
  APP_ENCRYPTION_KEY: () => randomBytes(32).toString("hex"),
  NEXTAUTH_SECRET: () => randomBytes(32).toString("base64url"),
  PROVIDER_APP_SECRET: () => randomBytes(32).toString("base64url"),
  PROVIDER_VERIFY_TOKEN: () => randomBytes(24).toString("base64url"),
};

export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, "secrets.json");
  const stored: Partial<LocalSecrets> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  const missing = (Object.keys(generators) as (keyof LocalSecrets)[]).filter((k) => !stored[k]);
  if (missing.length === 0) return stored as LocalSecrets;
  const secrets = { ...stored } as LocalSecrets;
  for (const name of missing) secrets[name] = generators[name]();
  fs.mkdirSync(dataDir, { recursive: true });
  fs.rmSync(file, { force: true }); // written anew so the mode below applies to an older file too
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
