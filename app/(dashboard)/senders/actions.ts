"use server";
import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { requirePermission } from "@/lib/dashboard/guard";
import { SenderConnectFields } from "@/lib/domains/senders/schemas";
import { connectSender, makeDefaultSender } from "@/lib/domains/senders/self-serve";

export async function addSenderAction(raw: Record<string, string>): Promise<ActionResult<{ phoneNumber: string }>> {
  const p = await requirePermission("senders");
  const result = await runAction(async () => {
    // The API's input schema (lib/domains/senders/schemas.ts); the checkbox posts "on".
    const input = SenderConnectFields.parse({
      phoneNumber: raw.phoneNumber ?? "",
      phoneNumberId: raw.phoneNumberId || undefined,
      makeDefault: raw.makeDefault === "on",
    });
    const sender = await connectSender(p, input);
    return { phoneNumber: sender.phoneNumber };
  }, raw);
  if (result.ok) revalidatePath("/", "layout");
  return result;
}

export async function makeDefaultAction(phoneNumber: string): Promise<ActionResult> {
  const p = await requirePermission("senders");
  const result = await runAction(async () => {
    await makeDefaultSender(p, phoneNumber);
    return undefined;
  });
  if (result.ok) revalidatePath("/", "layout");
  return result;
}
