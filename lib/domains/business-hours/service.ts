// Reading an account's business hours (docs/automation.md "Business hours"): rule conditions,
// the away reply and the support reports ask here. Null: none set (always open).
import { db, type Tx } from "@/lib/db";
import type { BusinessHours } from "./hours";
import { BusinessHoursSchema } from "./schemas";

/** The stored setting, parsed (a row written by an older shape reads as none). */
export function parseBusinessHours(stored: unknown): BusinessHours | null {
  if (stored === null || stored === undefined) return null;
  const parsed = BusinessHoursSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

export async function businessHoursOf(customerId: string, tx: Tx = db): Promise<BusinessHours | null> {
  const row = await tx.customer.findUnique({ where: { id: customerId }, select: { businessHours: true } });
  return parseBusinessHours(row?.businessHours);
}
