// Test helpers: a contact writes to a sender (a signed inbound callback through the real
// endpoint, then the processor), which opens the customer service window.
import { db } from "@/lib/db";
import { signProviderBody } from "@/lib/domains/provider/callbacks/signature";
import { envelopeFor } from "@/lib/domains/provider/simulator-callbacks";
import { type InboundSpec, inboundTextChange, inboundWamid } from "@/lib/domains/provider/simulator-inbound";
import type { Sender } from "@/lib/domains/senders/service";
import { handleProviderWebhook } from "@/lib/http/provider-webhook";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";

export function inboundBody(sender: Sender, spec: InboundSpec): string {
  return envelopeFor([
    inboundTextChange(
      { phoneNumberId: sender.phoneNumberId ?? "", phoneNumber: sender.phoneNumber, wabaId: sender.wabaId },
      spec,
    ),
  ]);
}

export async function postSigned(body: string): Promise<number> {
  const response = await handleProviderWebhook(
    new Request("http://localhost/api/provider/webhook", {
      method: "POST",
      headers: { "content-type": "application/json", "x-hub-signature-256": signProviderBody(body) },
      body,
    }),
  );
  return response.status;
}

export async function drainCallbacks(): Promise<void> {
  for (let i = 0; i < 50; i++) if ((await processPendingCallbacks(200)).callbacks === 0) return;
}

/** The contact writes `text` to the sender; returns the provider message id. */
export async function contactWrites(sender: Sender, from: string, text = "Hello", over: Partial<InboundSpec> = {}) {
  const id = over.id ?? inboundWamid();
  const status = await postSigned(inboundBody(sender, { from, text, ...over, id }));
  if (status !== 200) throw new Error(`inbound callback answered ${status}`);
  // Another processor (a test's background one) may hold the callback: wait until applied.
  for (let i = 0; i < 200; i++) {
    await drainCallbacks();
    if (await db.conversationMessage.findUnique({ where: { providerMessageId: id }, select: { id: true } })) return id;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`inbound message ${id} was not applied`);
}

/** The conversation's open support period and its current wait began `minutes` ago (the SLA due times follow). */
export async function backdateWait(conversationId: string, minutes: number): Promise<Date> {
  const at = new Date(Date.now() - minutes * 60_000);
  await db.supportPeriod.updateMany({
    where: { conversationId, resolvedAt: null },
    data: { startedAt: at, waitingSince: at },
  });
  return at;
}
