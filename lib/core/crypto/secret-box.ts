// AES-256-GCM for secrets at rest (webhook signing secrets, verification tokens).
// Stored form: v1.<iv b64url>.<tag b64url>.<ciphertext b64url>. The key comes from
// APP_ENCRYPTION_KEY (64 hex chars); embedded mode generates one into .data/.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { env } from "@/lib/core/env";
import { loadOrCreateLocalSecrets } from "./local-secrets";

export class SecretBoxError extends Error {}

const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

let cachedKey: Buffer | undefined;

export function encryptionKey(): Buffer {
  if (cachedKey) return cachedKey;
  const e = env();
  let hex = e.APP_ENCRYPTION_KEY;
  if (!hex) {
    if (e.DATABASE_URL && e.NODE_ENV === "production") {
      throw new SecretBoxError("APP_ENCRYPTION_KEY is required with DATABASE_URL in production");
    }
    hex = loadOrCreateLocalSecrets(e.DATA_DIR).APP_ENCRYPTION_KEY;
  }
  const key = Buffer.from(hex, "hex");
  if (key.length !== KEY_BYTES) throw new SecretBoxError("APP_ENCRYPTION_KEY must be 64 hex characters (32 bytes)");
  cachedKey = key;
  return cachedKey;
}

export function resetEncryptionKeyCache(): void {
  cachedKey = undefined;
}

export function encryptSecret(plain: string, key: Buffer = encryptionKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return ["v1", iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(".");
}

export function decryptSecret(stored: string, key: Buffer = encryptionKey()): string {
  const parts = stored.split(".");
  const [version, iv, tag, ciphertext] = parts;
  if (parts.length !== 4 || version !== "v1" || iv === undefined || tag === undefined || ciphertext === undefined) {
    throw new SecretBoxError("Unrecognised encrypted secret format");
  }
  const ivBytes = Buffer.from(iv, "base64url");
  const tagBytes = Buffer.from(tag, "base64url");
  // GCM would accept a shortened tag (down to 4 bytes), which weakens authentication:
  // only the full 16-byte tag we write is accepted.
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
    throw new SecretBoxError("Encrypted secret failed authentication (tampered, or another key)");
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, ivBytes, { authTagLength: TAG_BYTES });
    decipher.setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretBoxError("Encrypted secret failed authentication (tampered, or another key)");
  }
}
