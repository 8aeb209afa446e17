// The account's read-receipt setting (docs/inbox.md "Read receipts and typing"): on by default;
// off, opening a conversation marks nothing read at the provider and no typing indicator is
// shown. Shown to every inbox member, changed by owners and admins (inbox settings); audited.
import { db } from "@/lib/db";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";

export async function readReceiptsOn(p: Principal): Promise<boolean> {
  if (p.member) assertPermission(p, "inbox");
  const c = await db.customer.findUniqueOrThrow({ where: { id: p.customerId }, select: { readReceipts: true } });
  return c.readReceipts;
}

/** Turns read receipts on or off; a change is audited as `read_receipts.updated`. */
export async function setReadReceipts(p: Principal, on: boolean): Promise<boolean> {
  assertPermission(p, "inbox.settings");
  await db.$transaction(async (tx) => {
    const { count } = await tx.customer.updateMany({
      where: { id: p.customerId, readReceipts: !on },
      data: { readReceipts: on },
    });
    if (count === 0) return;
    await recordAudit(tx, {
      ...auditContext(p),
      action: "read_receipts.updated",
      target: { type: "account", uid: p.customerId },
      details: { enabled: on },
    });
  });
  return on;
}
