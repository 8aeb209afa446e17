"use server";
// The blacklist page's add and remove: the same zod bodies and services as POST /blacklist
// and POST /blacklist/remove, on the sender the page shows.
import { revalidatePath } from "next/cache";
import { ApiError } from "@/lib/core/errors";
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { requirePermission } from "@/lib/dashboard/guard";
import { addBlacklistEntry, removeBlacklistEntry } from "@/lib/domains/contacts/blacklist";
import { BlacklistAddBody, BlacklistRemoveBody } from "@/lib/domains/contacts/schemas";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";

async function senderOf(phone: string) {
  const p = await requirePermission("contacts.write");
  const sender = await pageSender(p, phone);
  if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Pick a sender first");
  return { p, sender };
}

export async function addBlacklistAction(
  senderPhone: string,
  raw: unknown,
): Promise<ActionResult<{ phoneNumber: string }>> {
  const result = await runAction(async () => {
    const { p, sender } = await senderOf(senderPhone);
    const body = BlacklistAddBody.parse({ ...(raw as object), senderId: senderPhone });
    const entry = await addBlacklistEntry(p, sender, {
      phoneNumber: body.phoneNumber,
      reason: body.reason || undefined,
    });
    return { phoneNumber: entry.phoneNumber };
  });
  if (result.ok) revalidatePath("/blacklist");
  return result;
}

export async function removeBlacklistAction(
  senderPhone: string,
  phoneNumber: string,
): Promise<ActionResult<{ removed: boolean }>> {
  const result = await runAction(async () => {
    const { p, sender } = await senderOf(senderPhone);
    const body = BlacklistRemoveBody.parse({ senderId: senderPhone, phoneNumber });
    return { removed: await removeBlacklistEntry(p, sender, body.phoneNumber) };
  });
  if (result.ok) revalidatePath("/blacklist");
  return result;
}
