// Input schemas of the operator CLI; each message completes "--flag: <message>".
import { z } from "zod";
import { ROLES } from "@/lib/domains/auth/permissions";
import { normalizeCategory, PRICING_CATEGORIES } from "@/lib/domains/billing/pricing-categories";
import { MAX_THROUGHPUT_PER_SECOND } from "@/lib/domains/senders/limit-values";
import { E164, normalizePhone, phoneField } from "@/lib/domains/senders/phone";
import { TokenPermissionsInput } from "@/lib/domains/tokens/schemas";

const id = z.string().trim().min(1, "must not be empty");
/** A number the operator types: the one phone parser, international only. */
const phone = phoneField();

export const CustomerCreateArgs = z.object({
  name: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  plan: z.enum(["starter", "pro"], { error: "must be starter or pro" }).default("pro"),
});

export const SenderDefaultArgs = z.object({ customer: id, phone });

export const SenderAddArgs = z.object({
  customer: id,
  phone,
  phoneNumberId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be the provider's phone number id (letters, digits)")
    .optional(),
  wabaId: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "must be the provider's business account id")
    .optional(),
  displayName: z.string().trim().min(1, "must not be empty").max(120).optional(),
  default: z.boolean().default(false),
});

export const TokenCreateArgs = z.object({
  customer: id,
  sender: phone.optional(),
  name: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters").default("CLI token"),
  expiresInDays: z.coerce
    .number({ error: "must be a whole number of days" })
    .int("must be a whole number of days")
    .positive("must be a positive number of days")
    .max(3650, "must be at most 3650 days")
    .optional(),
  /** "all" (the default) or a comma-separated list: billing,messages.read (docs/tokens.md "Restricted tokens"). */
  permissions: z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "all" ? v.split(",").map((p) => p.trim()) : v),
    TokenPermissionsInput,
  ),
});

export const TokenRevokeArgs = z.object({ tokenId: id });

export const TokenRotateArgs = z.object({
  tokenId: id,
  graceHours: z.coerce
    .number({ error: "must be a whole number of hours" })
    .int("must be a whole number of hours")
    .min(0, "must not be negative")
    .max(168, "must be at most 168 hours (7 days)")
    .default(24),
});

export const UserCreateArgs = z
  .object({
    customer: id,
    email: z.string().trim().toLowerCase().pipe(z.email("must be an email address like ops@example.com")),
    password: z.string().min(10, "must be at least 10 characters").max(200, "must be at most 200 characters"),
    name: z.string().trim().min(1).max(120).optional(),
    // The member's role (docs/members.md); an agent may be limited to some senders.
    role: z.enum(ROLES, { error: `must be one of ${ROLES.join(", ")}` }).default("owner"),
    senders: z
      .string()
      .transform((list) =>
        list
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
          .map(normalizePhone),
      )
      .refine((phones) => phones.length > 0, "must list at least one sender, like +15550001234,+15550001235")
      .refine((phones) => phones.every((p) => E164.test(p)), "must be E.164 numbers like +15550001234, comma-separated")
      .optional(),
  })
  .refine((input) => !input.senders || input.role === "agent", {
    path: ["senders"],
    message: "only an agent can be limited to senders (add --role agent)",
  });

export const RatesSetArgs = z.object({
  category: z
    .string()
    .transform(normalizeCategory)
    .refine((c) => (PRICING_CATEGORIES as readonly string[]).includes(c), {
      error: `must be one of ${PRICING_CATEGORIES.join(", ")}`,
    }),
  rate: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/, "must be a non-negative amount with at most 6 decimals, like 0.025")
    .refine((r) => Number(r) < 1_000_000, "must be less than 1000000"),
  customer: id.optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "must be a 3-letter currency code like USD")
    .optional(),
});

export const DemoSeedArgs = z.object({
  billingRecords: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more")
    .max(2_000_000, "must be at most 2000000")
    .optional(),
});

export const CallbacksDeadArgs = z.object({
  limit: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be 1 or more")
    .max(1000, "must be at most 1000")
    .default(100),
});

export const MailListArgs = z.object({
  limit: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(500, "must be at most 500")
    .default(20),
  to: z.string().trim().toLowerCase().pipe(z.email("must be an email address like ops@example.com")).optional(),
});

export const CallbacksRetryArgs = z
  .object({ callbackId: id.optional(), all: z.boolean().default(false) })
  .refine((a) => a.all !== (a.callbackId !== undefined), {
    message: "give one callback id or --all",
    path: ["callbackId"],
  });

export const SimulateInboundArgs = z
  .object({
    sender: phone,
    from: phone,
    text: z.string().min(1, "must not be empty").max(4096, "must be at most 4096 characters").optional(),
    media: z.string().min(1, "must name a file").max(4096).optional(),
    caption: z.string().min(1, "must not be empty").max(1024, "must be at most 1024 characters").optional(),
    /** The file is a voice note (the provider's `audio.voice`): an audio file only. */
    voice: z.boolean().optional(),
    name: z.string().trim().min(1, "must not be empty").max(120).optional(),
    // A tap on a reply button, a pick from a list, a reaction ("" removes it) and a quoted reply
    // name the message they answer by its provider id (docs/operator-cli.md "Simulated contacts").
    buttonId: z.string().min(1, "must not be empty").max(256, "must be at most 256 characters").optional(),
    buttonTitle: z.string().min(1, "must not be empty").max(20, "must be at most 20 characters").optional(),
    listRowId: z.string().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
    listRowTitle: z.string().min(1, "must not be empty").max(24, "must be at most 24 characters").optional(),
    listRowDescription: z.string().min(1, "must not be empty").max(72, "must be at most 72 characters").optional(),
    reaction: z.string().max(16, "must be one emoji").optional(),
    context: z.string().min(1, "must name a provider message id").max(256).optional(),
  })
  .refine(
    (a) =>
      [a.text, a.media, a.buttonId ?? a.buttonTitle, a.listRowId ?? a.listRowTitle, a.reaction].filter(
        (v) => v !== undefined,
      ).length === 1,
    {
      message:
        "give exactly one of --text, --media, --button-id (with --button-title), --list-row-id (with --list-row-title) and --reaction",
      path: ["text"],
    },
  )
  .refine((a) => a.caption === undefined || a.media !== undefined, {
    message: "goes with --media",
    path: ["caption"],
  })
  .refine((a) => a.voice !== true || a.media !== undefined, {
    message: "goes with --media (an audio file)",
    path: ["voice"],
  })
  .refine((a) => (a.buttonId === undefined) === (a.buttonTitle === undefined), {
    message: "--button-id and --button-title go together",
    path: ["buttonTitle"],
  })
  .refine((a) => (a.listRowId === undefined) === (a.listRowTitle === undefined), {
    message: "--list-row-id and --list-row-title go together",
    path: ["listRowTitle"],
  })
  .refine((a) => a.listRowDescription === undefined || a.listRowId !== undefined, {
    message: "goes with --list-row-id",
    path: ["listRowDescription"],
  })
  .refine(
    (a) =>
      a.context !== undefined || (a.buttonId === undefined && a.listRowId === undefined && a.reaction === undefined),
    {
      message: "--button-id, --list-row-id and --reaction need the message they answer (its provider id)",
      path: ["context"],
    },
  )
  .refine((a) => a.context === undefined || a.media === undefined, {
    message: "goes with --text, --button-id, --list-row-id or --reaction",
    path: ["context"],
  });

export const MediaGcArgs = z.object({});

export const CustomerListArgs = z.object({
  search: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
  limit: z.coerce
    .number({ error: "must be a whole number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(1000, "must be at most 1000")
    .default(50),
});

/** The customer a --customer flag names: its id, a member's email or a sender number (lib/cli/require-customer.ts). */
export const CreditAddArgs = z.object({
  customer: id,
  amount: z
    .string()
    .regex(/^\d+(\.\d{1,6})?$/, "must be a positive amount with at most 6 decimals, like 25 or 12.50")
    .refine((a) => Number(a) > 0, "must be more than 0")
    .refine((a) => Number(a) <= 100_000_000, "must be at most 100000000"),
  note: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters").optional(),
});

export const SenderLimitsArgs = z.object({
  sender: phone,
  throughput: z.coerce
    .number({ error: "must be a whole number of messages per second" })
    .int("must be a whole number of messages per second")
    .min(1, "must be at least 1")
    .max(MAX_THROUGHPUT_PER_SECOND, `must be at most ${MAX_THROUGHPUT_PER_SECOND} (the provider's upgraded numbers)`)
    .optional(),
  messagingLimit: z
    .string()
    .trim()
    .refine(
      (v) => v === "unlimited" || /^[1-9]\d{0,8}$/.test(v),
      "must be a number of contacts like 2000, or unlimited",
    )
    .transform((v) => (v === "unlimited" ? null : Number(v)))
    .optional(),
});

/** A member by email (user:2fa-off). */
export const UserEmailArgs = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email("must be an email address like ops@example.com")),
});
