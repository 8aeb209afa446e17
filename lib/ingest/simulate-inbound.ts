// `simulate:inbound`: a contact writes to a sender, as the provider would post it: a signed
// callback accepted as the provider endpoint accepts it (lib/domains/provider/callbacks/accept.ts,
// or over HTTP when SIMULATOR_CALLBACK_URL is set), then applied by the callback processor. When no app
// runs a processor (the CLI alone), the pending callbacks are processed here: the processor
// claims with SKIP LOCKED, so running beside an app's processor is safe.
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { envelopeFor, postCallback } from "@/lib/domains/provider/simulator-callbacks";
import { inboundTextChange, inboundWamid } from "@/lib/domains/provider/simulator-inbound";
import { normalizePhone } from "@/lib/domains/senders/service";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";

export type SimulatedInbound = {
  messageId: string;
  senderId: string;
  from: string;
  conversationUid: string | null;
  status: number;
};

export async function simulateInbound(input: {
  sender: string;
  from: string;
  text: string;
  name?: string;
}): Promise<SimulatedInbound> {
  const phone = normalizePhone(input.sender);
  const sender = await db.sender.findUnique({ where: { phoneNumber: phone } });
  if (!sender) throw new ApiError("SENDER_NOT_FOUND", `No sender ${phone}`);
  if (!sender.phoneNumberId) {
    throw new ApiError("WHATSAPP_SETUP_INCOMPLETE", `Sender ${phone} has no provider phone number id`);
  }
  const from = normalizePhone(input.from);
  const id = inboundWamid();
  const body = envelopeFor([
    inboundTextChange(
      { phoneNumberId: sender.phoneNumberId, phoneNumber: sender.phoneNumber, wabaId: sender.wabaId },
      { from, text: input.text, name: input.name, id },
    ),
  ]);
  const status = await postCallback(body);
  if (status !== 200) throw new ApiError("REQUEST_FAILED", `The provider endpoint answered ${status}`);
  // Applied by a running app within moments; otherwise (or to be sure) here.
  for (let i = 0; i < 100; i++) {
    const stored = await db.conversationMessage.findUnique({ where: { providerMessageId: id } });
    if (stored) return { messageId: id, senderId: phone, from, conversationUid: stored.conversationId, status };
    if ((await processPendingCallbacks(100)).callbacks === 0) await new Promise((r) => setTimeout(r, 50));
  }
  return { messageId: id, senderId: phone, from, conversationUid: null, status };
}
