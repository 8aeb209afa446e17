import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env";

function failure(source: Record<string, string>): string {
  try {
    parseEnv(source);
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    return (error as Error).message;
  }
  throw new Error("expected parseEnv to fail");
}

describe("environment validation", () => {
  it("accepts an empty environment with defaults (embedded mode)", () => {
    const env = parseEnv({});
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATA_DIR).toBe(".data");
    expect(env.RATE_LIMIT_GLOBAL).toBe(600);
    expect(env.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(false);
  });

  it("parses valid values", () => {
    const env = parseEnv({
      DATABASE_URL: "postgresql://app@db.internal:5432/switchboard",
      APP_ENCRYPTION_KEY: "ab".repeat(32),
      WEBHOOK_ALLOW_PRIVATE_URLS: "true",
      RATE_LIMIT_GLOBAL: "50",
      PROVIDER_APP_SECRET: "app-secret",
      PROVIDER_VERIFY_TOKEN: "verify-token",
    });
    expect(env.DATABASE_URL).toBe("postgresql://app@db.internal:5432/switchboard");
    expect(env.WEBHOOK_ALLOW_PRIVATE_URLS).toBe(true);
    expect(env.RATE_LIMIT_GLOBAL).toBe(50);
  });

  it("email: SMTP_URL must be smtp:// or smtps://, and needs MAIL_FROM", () => {
    const env = parseEnv({ SMTP_URL: "smtps://user:pass@mail.example.com:465", MAIL_FROM: "Ops <ops@example.com>" });
    expect(env.SMTP_URL).toBe("smtps://user:pass@mail.example.com:465");
    expect(failure({ SMTP_URL: "http://mail.example.com" })).toContain("SMTP_URL: must be an smtp:// or smtps:// URL");
    expect(failure({ SMTP_URL: "smtp://mail.example.com:587" })).toContain("MAIL_FROM: is required with SMTP_URL");
    expect(parseEnv({}).SMTP_URL).toBeUndefined();
  });

  it.each([
    [{ DATABASE_URL: "mysql://x" }, "DATABASE_URL"],
    [{ APP_ENCRYPTION_KEY: "short" }, "APP_ENCRYPTION_KEY"],
    [{ REDIS_URL: "http://cache" }, "REDIS_URL"],
    [{ NEXTAUTH_SECRET: "tiny" }, "NEXTAUTH_SECRET"],
    [{ RATE_LIMIT_GLOBAL: "-5" }, "RATE_LIMIT_GLOBAL"],
    [{ RATE_LIMIT_WINDOW_SECONDS: "soon" }, "RATE_LIMIT_WINDOW_SECONDS"],
    [{ WEBHOOK_ALLOW_PRIVATE_URLS: "maybe" }, "WEBHOOK_ALLOW_PRIVATE_URLS"],
    [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
    [{ NODE_ENV: "staging" }, "NODE_ENV"],
    [{ WEBHOOK_ALLOWED_PORTS: "443,ssh" }, "WEBHOOK_ALLOWED_PORTS"],
    [{ WEBHOOK_ALLOWED_PORTS: "9100-9000" }, "WEBHOOK_ALLOWED_PORTS"],
    [{ WEBHOOK_ALLOWED_PORTS: "70000" }, "WEBHOOK_ALLOWED_PORTS"],
  ])("stops on a bad value and names the variable: %o", (source, name) => {
    const message = failure(source);
    expect(message).toMatch(/^Invalid environment configuration/);
    expect(message).toContain(`${name}:`);
  });

  it("explains what a good value looks like", () => {
    expect(failure({ DATABASE_URL: "mysql://x" })).toContain("DATABASE_URL: must be a postgresql:// URL");
    expect(failure({ APP_ENCRYPTION_KEY: "short" })).toContain("APP_ENCRYPTION_KEY: must be 64 hex characters");
  });

  it("lists every bad variable at once", () => {
    const message = failure({ DATABASE_URL: "mysql://x", APP_ENCRYPTION_KEY: "short" });
    expect(message).toContain("DATABASE_URL");
    expect(message).toContain("APP_ENCRYPTION_KEY");
  });

  it.each([
    [{ NODE_ENV: "production" }],
    [{ DATABASE_URL: "postgresql://app@db.internal:5432/switchboard" }],
    [{ NODE_ENV: "production", PROVIDER_APP_SECRET: " " }],
  ])("refuses to start in production without the provider secrets, naming them: %o", (source) => {
    const message = failure(source);
    expect(message).toContain("PROVIDER_APP_SECRET: is required in production");
    expect(message).toContain("PROVIDER_VERIFY_TOKEN: is required in production");
    expect(failure({ ...source, PROVIDER_APP_SECRET: "set" })).not.toContain("PROVIDER_APP_SECRET");
  });

  it("does not ask a production build (next build) for runtime secrets", () => {
    expect(parseEnv({ NODE_ENV: "production", NEXT_PHASE: "phase-production-build" }).PROVIDER_APP_SECRET).toBe(
      "dev_provider_app_secret",
    );
  });

  it("uses the public dev_ provider secrets only outside production", () => {
    expect(parseEnv({}).PROVIDER_APP_SECRET).toBe("dev_provider_app_secret");
    expect(parseEnv({ NODE_ENV: "test" }).PROVIDER_VERIFY_TOKEN).toBe("dev_provider_verify_token");
    const prod = parseEnv({ NODE_ENV: "production", PROVIDER_APP_SECRET: "a", PROVIDER_VERIFY_TOKEN: "b" });
    expect([prod.PROVIDER_APP_SECRET, prod.PROVIDER_VERIFY_TOKEN]).toEqual(["a", "b"]);
  });

  it("parses WEBHOOK_ALLOWED_PORTS into ranges", () => {
    expect(parseEnv({ WEBHOOK_ALLOWED_PORTS: "443, 8443,9000 - 9100" }).WEBHOOK_ALLOWED_PORTS).toEqual([
      [443, 443],
      [8443, 8443],
      [9000, 9100],
    ]);
  });

  it("treats an empty value as not set", () => {
    const env = parseEnv({ DATABASE_URL: "", REDIS_URL: " ", RATE_LIMIT_GLOBAL: "" });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS_URL).toBeUndefined();
    expect(env.RATE_LIMIT_GLOBAL).toBe(600);
  });
});
