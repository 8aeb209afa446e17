// The only module that reads process.env. Validated once; a bad value names itself.
import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

export const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional(),
  DATA_DIR: z.string().default(".data"),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .optional(),
  NEXTAUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  NEXTAUTH_URL: z.url().optional(),
  APP_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes)")
    .optional(),
  PROVIDER_APP_SECRET: z.string().min(1).default("dev_provider_app_secret"),
  PROVIDER_VERIFY_TOKEN: z.string().min(1).default("dev_provider_verify_token"),
  WEBHOOK_ALLOW_PRIVATE_URLS: bool,
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  RATE_LIMIT_GLOBAL: positiveInt(600),
  RATE_LIMIT_SEND_IP: positiveInt(120),
  RATE_LIMIT_SEND_TOKEN: positiveInt(300),
  RATE_LIMIT_REPORTS_IP: positiveInt(240),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
  API_BODY_LIMIT_BYTES: positiveInt(1_048_576),
  TRUST_PROXY: bool,
  // Event pipeline (lib/webhooks/worker.ts, lib/events/ingest/processor.ts).
  WEBHOOK_RETRY_BASE_MS: positiveInt(1_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: positiveInt(3_600_000),
  WORKER_CONCURRENCY: positiveInt(64),
  WORKER_POLL_MS: positiveInt(100),
  WORKER_LEASE_MARGIN_MS: positiveInt(10_000),
  // Messaging provider (lib/provider). No access token configured = the built-in simulator.
  PROVIDER_MODE: z.enum(["auto", "simulator", "http"]).default("auto"),
  PROVIDER_BASE_URL: z.url().default("https://graph.facebook.com"),
  PROVIDER_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, "must look like v21.0")
    .default("v21.0"),
  PROVIDER_ACCESS_TOKEN: z.string().min(1).optional(),
  /** JSON object {"<phoneNumberId>": "<access token>"}: per-sender tokens over the default. */
  PROVIDER_ACCESS_TOKENS: z.string().optional(),
  PROVIDER_TIMEOUT_MS: positiveInt(15_000),
  /** Where the simulator posts status callbacks; unset = straight into the in-process handler. */
  SIMULATOR_CALLBACK_URL: z.url().optional(),
  SIMULATOR_THROUGHPUT_PER_SECOND: positiveInt(80),
  /** Base delay of the simulated status progression (sent ~1x, delivered ~3x, read ~8x). */
  SIMULATOR_STATUS_DELAY_MS: positiveInt(150),
  SIMULATOR_FAILURE_RATE: z.coerce.number().min(0).max(1).default(0.03),
  SIMULATOR_READ_RATE: z.coerce.number().min(0).max(1).default(0.7),
  /** Share of delivered messages whose simulated contact answers (docs/conversations.md). */
  SIMULATOR_REPLY_RATE: z.coerce.number().min(0).max(1).default(0.2),
});

export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty value (`DATABASE_URL=` in a .env file or a compose file) means "not set".
  const present = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v.trim() !== ""));
  const result = EnvSchema.safeParse(present);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new EnvError(`Invalid environment configuration:\n${lines.join("\n")}`);
  }
  return result.data;
}

let cached: Env | undefined;

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests change the environment between cases; this forgets the parsed copy. */
export function resetEnvCache(): void {
  cached = undefined;
}
