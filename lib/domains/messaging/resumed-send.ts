// A retry of an Idempotency-Key whose first run recorded its message and stopped without an
// answer (its process died after the provider call) is answered from that message, as it is
// now, instead of sending again (docs/idempotency.md "A retry after a crash").
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { takeEarlierMessage } from "@/lib/domains/idempotency/key-run";
import { SENDING } from "@/lib/domains/messages/rows";
import { refusedAtSend } from "@/lib/domains/messages/status";
import { findTemplate } from "@/lib/domains/templates/send-template";
import { MessagingError } from "./errors";
import type { SendResult } from "./outgoing";

/** The send this request's key recorded before, or undefined when this run sends. */
export async function resumedSend(p: Principal): Promise<SendResult | undefined> {
  const earlier = takeEarlierMessage(p.customerId);
  if (!earlier) return undefined;
  const message = await db.message.findFirst({ where: { id: earlier.messageId, customerId: p.customerId } });
  if (!message || refusedAtSend(message)) {
    // Refused by the provider: nothing reached the contact, so the retry sends for real.
    earlier.refused();
    return undefined;
  }
  if (message.status === SENDING || message.status === "unknown") {
    // Interrupted during the provider call: the provider may have it, so it is never sent
    // again; the answer of an ambiguous outcome (docs/messaging.md "Write, call, complete").
    throw new MessagingError(
      "PROVIDER_UNAVAILABLE",
      "The provider did not confirm the message; read the message report before resending",
      { messageUid: message.id, providerCode: null, attempts: message.attempts },
    );
  }
  earlier.answered();
  const template =
    message.templateName && message.templateLanguage
      ? await findTemplate(p.customerId, message.templateName, message.templateLanguage)
      : null;
  return { message, queued: message.queued, template };
}
