// Embedded mode generates its secrets once into the data folder (git-ignored), so a
// fresh clone runs without configuration. Server mode must set them in the environment.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export type LocalSecrets = { APP_ENCRYPTION_KEY: string; NEXTAUTH_SECRET: string };

export function loadOrCreateLocalSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, "secrets.json");
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, "utf8")) as LocalSecrets;
  const secrets: LocalSecrets = {
    APP_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    NEXTAUTH_SECRET: randomBytes(32).toString("base64url"),
  };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}
