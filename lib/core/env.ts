// The only module that reads process.env. Validated once; a bad value names itself.
import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const ObjectSchema = z.object({
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
  /** The public base URL (https://switchboard.example.com); defaults to NEXTAUTH_URL. */
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  APP_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes)")
    .optional(),
  // Required in production (see withDevSecrets below); public dev_ values otherwise.
  PROVIDER_APP_SECRET: z.string().min(1).optional(),
  PROVIDER_VERIFY_TOKEN: z.string().min(1).optional(),
  WEBHOOK_ALLOW_PRIVATE_URLS: bool,
  /** Webhook endpoint ports, e.g. "443,8443,9000-9100"; unset = lib/domains/webhooks/url-guard.ts's default. */
  WEBHOOK_ALLOWED_PORTS: z
    .string()
    .regex(
      /^\s*\d{1,5}(\s*-\s*\d{1,5})?(\s*,\s*\d{1,5}(\s*-\s*\d{1,5})?)*\s*$/,
      "must be a list like 443,8443,9000-9100",
    )
    .transform((text) =>
      text.split(",").map((part) => {
        const [lo, hi = lo] = part.split("-").map((n) => Number(n.trim()));
        return [lo, hi] as [number, number];
      }),
    )
    .refine(
      (ranges) => ranges.every(([lo, hi]) => lo >= 1 && hi <= 65535 && lo <= hi),
      "ports must be 1-65535, ranges low-high",
    )
    .optional(),
  /** Email (docs/email.md): smtp://user:pass@host:587 (STARTTLS when offered) or smtps://...:465; unset: logged and kept for `mail:list`. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL, like smtp://user:pass@mail.example.com:587")
    .optional(),
  /** The From of every email, like "Switchboard <no-reply@example.com>"; required with SMTP_URL. */
  MAIL_FROM: z.string().trim().min(3).max(320).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  RATE_LIMIT_GLOBAL: positiveInt(600),
  RATE_LIMIT_SEND_IP: positiveInt(120),
  RATE_LIMIT_SEND_TOKEN: positiveInt(300),
  RATE_LIMIT_REPORTS_IP: positiveInt(240),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(60),
  /** Dashboard sign-ups per client IP per hour (lib/domains/customers/signup.ts). */
  RATE_LIMIT_SIGNUP_IP: positiveInt(10),
  API_BODY_LIMIT_BYTES: positiveInt(1_048_576),
  /** Per-token request log and hourly usage (lib/domains/tokens/usage.ts, docs/tokens.md). */
  API_USAGE_RECORDING: z.enum(["on", "off"]).default("on"),
  /** Raw API request log rows older than this are pruned (hourly counts stay). */
  USAGE_LOG_RETENTION_DAYS: positiveInt(30),
  TRUST_PROXY: bool,
  // Event pipeline (lib/domains/webhooks/worker.ts, lib/domains/events/ingest/processor.ts).
  WEBHOOK_RETRY_BASE_MS: positiveInt(1_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: positiveInt(3_600_000),
  WORKER_CONCURRENCY: positiveInt(64),
  // The safety poll behind LISTEN/NOTIFY (docs/architecture.md "Background work"): 30 s keeps an
  // idle app under 1% of a core (docs/benchmarks.md "Idle CPU").
  // At most the longest timer Node keeps (a longer one fires at once).
  WORKER_POLL_MS: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1)
    .default(30_000),
  WORKER_LEASE_MARGIN_MS: positiveInt(10_000),
  /** `npm run worker` answers GET /healthz on this port (docs/deployment.md); 0 = a free port; unset = none. */
  WORKER_HEALTH_PORT: z.coerce.number().int().min(0).max(65_535).optional(),
  // Messaging provider (lib/domains/provider). No access token configured = the built-in simulator.
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

/** Secrets that verify what the provider sends: a public default would accept forged callbacks. */
const PROVIDER_SECRETS = ["PROVIDER_APP_SECRET", "PROVIDER_VERIFY_TOKEN"] as const;
const DEV_PROVIDER_SECRETS = {
  PROVIDER_APP_SECRET: "dev_provider_app_secret",
  PROVIDER_VERIFY_TOKEN: "dev_provider_verify_token",
} as const;

/** Production is NODE_ENV=production or a PostgreSQL server (DATABASE_URL). */
export const isProduction = (e: { NODE_ENV: string; DATABASE_URL?: string }) =>
  e.NODE_ENV === "production" || e.DATABASE_URL !== undefined;

// `next build` evaluates server modules with NODE_ENV=production; building is not starting,
// and a build machine holds no runtime secrets.
const BUILD_PHASE = "phase-production-build";

export const EnvSchema = ObjectSchema.extend({ NEXT_PHASE: z.string().optional() })
  .superRefine((e, ctx) => {
    if (e.SMTP_URL && !e.MAIL_FROM) {
      ctx.addIssue({
        code: "custom",
        path: ["MAIL_FROM"],
        message: 'is required with SMTP_URL (the From of every email, like "Switchboard <no-reply@example.com>")',
      });
    }
    if (!isProduction(e) || e.NEXT_PHASE === BUILD_PHASE) return;
    for (const name of PROVIDER_SECRETS) {
      if (e[name] !== undefined) continue;
      ctx.addIssue({
        code: "custom",
        path: [name],
        message:
          "is required in production (NODE_ENV=production or DATABASE_URL set); the public dev_ default is only used in development",
      });
    }
  })
  .transform((e) => ({
    ...e,
    PROVIDER_APP_SECRET: e.PROVIDER_APP_SECRET ?? DEV_PROVIDER_SECRETS.PROVIDER_APP_SECRET,
    PROVIDER_VERIFY_TOKEN: e.PROVIDER_VERIFY_TOKEN ?? DEV_PROVIDER_SECRETS.PROVIDER_VERIFY_TOKEN,
  }));

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

/**
 * Embedded mode (no DATABASE_URL): the data folder, read before the full validation,
 * because the secrets generated into it (lib/core/crypto/local-secrets.ts) must be in the
 * environment first. Undefined in server mode.
 */
export function embeddedDataDir(): string | undefined {
  const partial = ObjectSchema.pick({ DATABASE_URL: true, DATA_DIR: true }).safeParse({
    DATABASE_URL: process.env.DATABASE_URL?.trim() || undefined,
    DATA_DIR: process.env.DATA_DIR?.trim() || undefined,
  });
  if (!partial.success || partial.data.DATABASE_URL) return undefined;
  return partial.data.DATA_DIR;
}

/** Sets the variables the environment lacks (generated local secrets); forgets the parsed copy. */
export function provideDefaults(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    if (!process.env[name]?.trim()) process.env[name] = value;
  }
  cached = undefined;
}

export function env(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Tests change the environment between cases; this forgets the parsed copy. */
export function resetEnvCache(): void {
  cached = undefined;
}
