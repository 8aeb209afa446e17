// Token creation input (dashboard form) and the public shape of a token (never its hash).
import { z } from "zod";
import { TOKEN_PERMISSIONS } from "@/lib/domains/auth/permissions";

/**
 * What a new token may do (docs/tokens.md "Restricted tokens"): "all" (the default), or the
 * chosen permissions, at least one. The one schema of the dashboard's checkboxes and the
 * operator CLI's --permissions.
 */
export const TokenPermissionsInput = z
  .union([z.literal("all"), z.array(z.enum(TOKEN_PERMISSIONS)).min(1)], {
    error: `Choose all permissions, or at least one of: ${TOKEN_PERMISSIONS.join(", ")}`,
  })
  .default("all");

export const TokenCreateInput = z.object({
  name: z.string().trim().min(1, "Give the token a name").max(100),
  /** Sender phone number (E.164) for a number-scoped token; empty for a global one. */
  senderId: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined),
  /** YYYY-MM-DD; the token stops working at the start of that day (UTC). Empty: never expires. */
  expiresOn: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .refine((v) => v === undefined || /^\d{4}-\d{2}-\d{2}$/.test(v), "Use the format YYYY-MM-DD")
    .refine((v) => v === undefined || new Date(`${v}T00:00:00Z`).getTime() > Date.now(), "Pick a date in the future"),
  permissions: TokenPermissionsInput,
});
export type TokenCreateValue = z.infer<typeof TokenCreateInput>;

/** Dashboard rotation form: how long the old token keeps working (docs/tokens.md). */
export const TokenRotateInput = z.object({
  graceHours: z.coerce
    .number({ error: "Give the grace period in hours" })
    .int("Use a whole number of hours")
    .min(0, "The grace period cannot be negative")
    .max(168, "The grace period is at most 7 days (168 hours)")
    .default(24),
});
