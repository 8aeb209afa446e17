// The only module that reads process.env. Validated once; a bad value names itself.
import { z } from "zod";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

// The variables in groups, each described: scripts/configuration-doc.ts writes
// docs/configuration.md from these (`npm run docs:configuration`; the lint step fails when
// it is stale).
const Process = z.object({
  NODE_ENV: z
    .enum(["development", "production", "test"])
    .default("development")
    .describe("`production` requires the provider secrets below (so does a `DATABASE_URL`)."),
  PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .optional()
    .describe("The public port: the dashboard and the API. Unset: 3000 (`npm run serve:api`: 3001)."),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe("pino's log level."),
});

const Storage = z.object({
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL")
    .optional()
    .describe(
      "A PostgreSQL server (`postgresql://…`); run `npm run db:migrate` before `npm start`. Unset: the embedded PGlite database under `DATA_DIR` (docs/database.md).",
    ),
  DATABASE_POOL_SIZE: positiveInt(10).describe(
    'PostgreSQL connections per process for requests; background work has a pool of the same size of its own, opened only in a process that runs it (docs/database.md "Connections").',
  ),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30_000)
    .describe(
      "PostgreSQL's statement_timeout on the request connections: a longer statement is cancelled and its request answers 503 with Retry-After. 0: none. Background work has none. The embedded PGlite has no statement timeout.",
    ),
  DATABASE_CUSTOMER_CONNECTIONS: positiveInt(6).describe(
    "Request connections one customer may hold at once in a process (the rest of `DATABASE_POOL_SIZE` stays free for other customers); a request past it waits up to `DATABASE_CUSTOMER_WAIT_MS`, then answers 503 with Retry-After.",
  ),
  DATABASE_CUSTOMER_WAIT_MS: positiveInt(10_000).describe(
    "How long a request waits for a connection within its customer's share before it answers 503 (a burst queues rather than fails).",
  ),
  DATA_DIR: z
    .string()
    .default(".data")
    .describe("Embedded mode's folder: the database, the generated local secrets, the demo credentials."),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, "must be a redis:// URL")
    .optional()
    .describe(
      "Redis for the rate-limit windows and the broadcasts' per-sender send pace that several instances share. Unset: windows counted in memory, the pace in PostgreSQL.",
    ),
});

const Secrets = z.object({
  APP_ENCRYPTION_KEY: z
    .string()
    .regex(/^[0-9a-fA-F]{64}$/, "must be 64 hex characters (32 bytes)")
    .optional()
    .describe(
      "64 hex characters: the AES-256-GCM key of the signing secrets and verification tokens at rest. Unset in embedded mode: generated into `DATA_DIR/secrets.json`; required with `DATABASE_URL`.",
    ),
  NEXTAUTH_SECRET: z
    .string()
    .min(16, "must be at least 16 characters")
    .optional()
    .describe("Signs the dashboard sessions. Unset in embedded mode: generated into `DATA_DIR/secrets.json`."),
  NEXTAUTH_URL: z
    .url()
    .optional()
    .describe(
      "The dashboard's public URL; `https://` makes the session cookies `Secure`. Unset: `http://localhost:$PORT`.",
    ),
  PUBLIC_URL: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "The API's public base URL (https://switchboard.example.com): the `servers[]` of `/api/v3/openapi.json`, never taken from a request's Host. Unset: `/` (relative: clients and the reference page's \"try it\" use the host they read the document from).",
    ),
  // Required in production (EnvSchema below); public dev_ values otherwise.
  PROVIDER_APP_SECRET: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Verifies the `X-Hub-Signature-256` of provider callbacks. Required in production; in embedded mode generated into `DATA_DIR/secrets.json`; the public `dev_provider_app_secret` only in development.",
    ),
  PROVIDER_VERIFY_TOKEN: z
    .string()
    .min(1)
    .optional()
    .describe(
      "The provider's subscription handshake token. Required in production, like `PROVIDER_APP_SECRET` (`dev_provider_verify_token` in development).",
    ),
});

const Api = z.object({
  RATE_LIMIT_GLOBAL: positiveInt(600).describe("Requests per window and client IP, every route (docs/api/limits.md)."),
  RATE_LIMIT_SEND_IP: positiveInt(120).describe("Sends per window and client IP."),
  RATE_LIMIT_SEND_TOKEN: positiveInt(300).describe("Sends per window and API token."),
  RATE_LIMIT_REPORTS_IP: positiveInt(240).describe("Report requests per window and client IP."),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(60).describe("The length of the fixed rate-limit windows."),
  RATE_LIMIT_SIGNUP_IP: positiveInt(10).describe(
    "Dashboard sign-ups per client IP per hour (lib/domains/customers/signup.ts). Logins are limited apart: 10 per IP and email, 30 per IP, 100 per email in 15 minutes; a spent email budget slows the addresses that tried it and never locks its owner out (docs/sign-in-limits.md).",
  ),
  API_BODY_LIMIT_BYTES: positiveInt(1_048_576).describe(
    'The largest request body, counted while it streams: the API, and every body `npm start`\'s front server passes to Next (pages and server actions, sign-in, sign-up, the dashboard handlers; docs/dashboard.md "Requests the dashboard refuses"). Bulk contact upload takes 10 MiB, with a verified token only.',
  ),
  API_USAGE_RECORDING: z
    .enum(["on", "off"])
    .default("on")
    .describe("`off` stops the per-token request log and hourly usage (lib/domains/tokens/usage.ts, docs/tokens.md)."),
  AUDIT_RETENTION_DAYS: positiveInt(365).describe(
    "Audit log entries older than this many days are deleted by the background worker (hourly). See docs/security.md.",
  ),
  USAGE_LOG_RETENTION_DAYS: positiveInt(30).describe(
    "Raw API request log rows older than this are pruned; the hourly counts stay.",
  ),
  TRUST_PROXY: bool.describe(
    'Behind one trusted reverse proxy: the client IP is the last `X-Forwarded-For` entry (the one it added), and its `X-Forwarded-Proto: https` makes the session cookies `Secure`. Otherwise the socket\'s address, never a header (docs/security.md "Client addresses").',
  ),
});

const Webhooks = z.object({
  WEBHOOK_ALLOW_PRIVATE_URLS: bool.describe(
    "Allow `http://` and private or loopback webhook endpoints (development and tests only).",
  ),
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
    .optional()
    .describe(
      "Webhook endpoint ports, a list like `443,8443,9000-9100`, instead of the default: 443, 8443 and 1024-65535 without the usual database and cache ports (3306, 5432, 6379, 9200, 11211, 27017, …; lib/domains/webhooks/url-guard.ts).",
    ),
  // Event pipeline (lib/domains/webhooks/worker.ts, lib/ingest/processor.ts).
  WEBHOOK_RETRY_BASE_MS: positiveInt(1_000).describe(
    "The base of the exponential backoff, with full jitter, between delivery attempts.",
  ),
  WEBHOOK_RETRY_MAX_DELAY_MS: positiveInt(3_600_000).describe("The longest wait between delivery attempts."),
  WORKER_CONCURRENCY: positiveInt(64).describe("Webhook deliveries in flight per worker."),
  // The safety poll behind LISTEN/NOTIFY (docs/architecture.md "Background work"): 30 s keeps an
  // idle app under 1% of a core (docs/benchmarks.md "Idle CPU").
  // At most the longest timer Node keeps (a longer one fires at once).
  WORKER_POLL_MS: z.coerce
    .number()
    .int()
    .positive()
    .max(2 ** 31 - 1)
    .default(30_000)
    .describe("The background workers' safety poll; their work is woken by LISTEN/NOTIFY."),
  WORKER_LEASE_MARGIN_MS: positiveInt(10_000).describe("A claimed delivery's lease beyond its destination's timeout."),
  CHATBOT_RULE_BUDGET_MS: positiveInt(500).describe(
    'Time a chatbot\'s patterns may run on one message, in a worker thread; out of time, the fallback answers (docs/chatbots.md "Patterns: linear time, bounded size, a time budget").',
  ),
  WORKER_HEALTH_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65_535)
    .optional()
    .describe(
      "`npm run worker` answers `GET /healthz` on this port (0: a free one, printed; docs/deployment.md). Unset: no health port.",
    ),
});

// Messaging provider (lib/domains/provider). No access token configured = the built-in simulator.
const Provider = z.object({
  PROVIDER_MODE: z
    .enum(["auto", "simulator", "http"])
    .default("auto")
    .describe("`simulator`, `http`, or `auto`: http when an access token is configured, else the simulator."),
  PROVIDER_BASE_URL: z.url().default("https://graph.facebook.com").describe("The provider's Graph-style API."),
  PROVIDER_API_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, "must look like v21.0")
    .default("v21.0")
    .describe("The version segment of the provider's API paths."),
  PROVIDER_ACCESS_TOKEN: z.string().min(1).optional().describe("The default access token of the provider's API."),
  PROVIDER_ACCESS_TOKENS: z
    .string()
    .optional()
    .describe('A JSON object `{"<phoneNumberId>": "<access token>"}`: per-sender tokens over the default.'),
  PROVIDER_TIMEOUT_MS: positiveInt(15_000).describe("The timeout of one call to the provider's API."),
  SIMULATOR_CALLBACK_URL: z
    .url()
    .optional()
    .describe("Where the simulator posts its signed status callbacks. Unset: straight into the in-process handler."),
  SIMULATOR_THROUGHPUT_PER_SECOND: positiveInt(80).describe(
    'The simulator\'s messages per second per number (docs/api/limits.md "Provider limits").',
  ),
  SIMULATOR_MESSAGING_LIMIT: positiveInt(10_000).describe(
    "The simulator's messaging limit of a business account whose tier the service does not carry: unique contacts reached outside an open window per rolling 24 hours; past it a send fails with 131048 (docs/api/limits.md \"What the simulator enforces\"). A sender's own tier (sender:limits) takes precedence.",
  ),
  SIMULATOR_MARKETING_CAP_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.02)
    .describe(
      "The share of simulated marketing template sends that fail with 131049 (the provider's marketing frequency cap for that user).",
    ),
  SIMULATOR_MEDIA_DELAY_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(0)
    .describe(
      'How long the simulator takes to serve a file its simulated contacts sent, in ms (a slow provider; docs/media.md "Simulator and CLI").',
    ),
  SIMULATOR_STATUS_DELAY_MS: positiveInt(150).describe(
    "The base delay of the simulated status progression (sent after about 1x, delivered 3x, read 8x).",
  ),
  SIMULATOR_FAILURE_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.03)
    .describe("The share of simulated sends that fail."),
  SIMULATOR_READ_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.7)
    .describe("The share of simulated sends that are read."),
  SIMULATOR_WELCOME_CREDIT: z.coerce
    .number()
    .min(0)
    .max(1_000_000)
    .default(10)
    .describe(
      'In simulator mode, the credit a new self-serve account starts with, one ledger entry "Welcome credit (simulator)", so the onboarding\'s first template goes through (docs/api/billing.md "Welcome credit"); 0 = none. A real provider\'s accounts start at 0 (credit:add).',
    ),
  SIMULATOR_REPLY_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.2)
    .describe(
      "The share of delivered simulated messages whose contact answers with a signed inbound callback (docs/conversations.md).",
    ),
  SIMULATOR_IMAGE_REPLY_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.25)
    .describe(
      'The share of simulated contacts\' answers that are a photo (fetched and kept like any inbound file: docs/media.md "Simulator and CLI").',
    ),
  SIMULATOR_TAP_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.8)
    .describe(
      'The share of simulated contacts\' answers to reply buttons or a list that tap a button or pick a row (docs/messaging.md "Provider and simulator").',
    ),
  SIMULATOR_REACTION_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.1)
    .describe("The share of simulated contacts' other answers that are a reaction to the message (an emoji)."),
  SIMULATOR_QUOTE_RATE: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(0.2)
    .describe("The share of simulated contacts' text answers that quote the message they answer."),
});

// Media (docs/media.md): where files live, how long, how much, and the inbound downloads.
const Media = z.object({
  MEDIA_S3_BUCKET: z
    .string()
    .min(3)
    .optional()
    .describe(
      "An S3-compatible bucket for media files (AWS S3, MinIO, R2), shared by every instance. Unset: the local folder `DATA_DIR/media` (one machine only).",
    ),
  MEDIA_S3_ENDPOINT: z
    .url({ protocol: /^https?$/ })
    .optional()
    .describe(
      "The S3 endpoint of a non-AWS server (MinIO, R2: `https://<account>.r2.cloudflarestorage.com`). Unset: AWS.",
    ),
  MEDIA_S3_REGION: z.string().min(1).default("us-east-1").describe("The bucket's region (`auto` on R2)."),
  MEDIA_S3_ACCESS_KEY_ID: z
    .string()
    .min(1)
    .optional()
    .describe("The S3 access key. Unset: the AWS SDK's default credentials (environment, instance role)."),
  MEDIA_S3_SECRET_ACCESS_KEY: z
    .string()
    .min(1)
    .optional()
    .describe("The S3 secret key, with `MEDIA_S3_ACCESS_KEY_ID`."),
  MEDIA_S3_FORCE_PATH_STYLE: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true" || v === "1"))
    .describe(
      "Path-style bucket addressing (`endpoint/bucket/key`), which MinIO needs. Unset: on when `MEDIA_S3_ENDPOINT` is set.",
    ),
  MEDIA_RETENTION_DAYS: positiveInt(365).describe(
    "Media files older than this many days are deleted by the hourly pass (`media:gc`); their messages keep the file's facts and say expired.",
  ),
  MEDIA_QUOTA_MB: positiveInt(5_000).describe(
    "The media an account may keep, in MB (10^6 bytes); an upload past it is `413 MEDIA_QUOTA_EXCEEDED`. Files a contact sends are kept past it.",
  ),
  MEDIA_FETCH_TIMEOUT_MS: positiveInt(120_000).describe(
    "The longest one download of an inbound file from the provider may take (and so the worker's lease on it).",
  ),
  MEDIA_FETCH_RETRY_BASE_MS: positiveInt(30_000).describe(
    "The base of the exponential backoff, with full jitter, between attempts to download an inbound file; after 6 hours of failures it is `unavailable`.",
  ),
});

// Email (docs/email.md): invitations, and later password resets and security notices.
const Email = z.object({
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^\s]+$/, "must be an smtp:// or smtps:// URL, like smtp://user:pass@mail.example.com:587")
    .optional()
    .describe(
      "Where emails go, through nodemailer: `smtp://user:pass@host:587` (upgraded with STARTTLS when the server offers it) or `smtps://user:pass@host:465`. A failed send is retried from the outbox. Unset: each email is logged with its links and kept for `npm run -s cli -- mail:list` (docs/email.md).",
    ),
  MAIL_FROM: z
    .string()
    .trim()
    .min(3)
    .max(320)
    .optional()
    .describe("The From of every email, like `Switchboard <no-reply@example.com>`. Required with `SMTP_URL`."),
});

/** The groups of docs/configuration.md, in its order. */
export const ENV_GROUPS = {
  "Process and logs": Process,
  "Where data lives": Storage,
  "Secrets and public URLs": Secrets,
  "API limits and usage": Api,
  "Webhooks and background workers": Webhooks,
  "Messaging provider and simulator": Provider,
  Media,
  Email,
} as const;

const ObjectSchema = z.object({
  ...Process.shape,
  ...Storage.shape,
  ...Secrets.shape,
  ...Api.shape,
  ...Webhooks.shape,
  ...Provider.shape,
  ...Media.shape,
  ...Email.shape,
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
