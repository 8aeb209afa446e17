// Schemas of path parameters (a route's `params`, docs/openapi.md "Adding a route"). A value
// its schema refuses cannot name anything, so the router answers the route's not-found code
// without a look-up.
import { z } from "zod";

/** Any text PostgreSQL can store: text cannot hold a NUL byte, so no row is named by one. */
export const PathText = z
  .string()
  .min(1)
  .refine((v) => !v.includes("\u0000"), "must not contain a NUL byte");

/** An id this service issues (a cuid, or a prefix and hex: evt_…, msg_…, rcv_…). */
export const PublicId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, "is not an id this service issues");
