// The checks stage of the send pipeline (docs/messaging.md "The send pipeline"): each check
// is a step its own domain owns, called once for a whole batch of sends from one sender (a
// single send is a batch of one), so a batch costs one round trip per check, not one per
// message. The steps read only: none calls back into messaging.
import { ApiError } from "@/lib/core/errors";
import { storableValue } from "@/lib/core/storable-text";
import type { Principal } from "@/lib/domains/auth/principal";
import { balanceRefusals, recentBalance } from "@/lib/domains/billing/send-balance";
import { blacklistedAmong } from "@/lib/domains/contacts/blacklist";
import { windowRefusals } from "@/lib/domains/conversations/window";
import { type SendMedia, sendMediaVerdicts } from "@/lib/domains/media/send-media";
import { UNDELIVERABLE } from "@/lib/domains/provider/error-codes";
import type { ProviderMessagePayload } from "@/lib/domains/provider/types";
import type { Sender } from "@/lib/domains/senders/service";
import { directSendComponents } from "@/lib/domains/templates/direct-send";
import { sendTemplates } from "@/lib/domains/templates/send-template";
import type { Template } from "@/lib/generated/prisma/client";
import { MessagingError } from "./errors";
import type { OutgoingMessage } from "./outgoing";

/** A send that passed every check, with what the checks found: ready to record and dispatch. */
export type CheckedSend = {
  out: OutgoingMessage;
  template: Template | null;
  pricingCategory: string;
  /** The provider body as it leaves (a Direct Send's text as its template's message). */
  payload: ProviderMessagePayload;
  /** The file it sends by mediaId (a media message's, a template header's), checked ready (lib/domains/media). */
  media: SendMedia | null;
};

export type SendVerdict = { ok: true; send: CheckedSend } | { ok: false; refusal: ApiError };

/**
 * Checks a batch of sends from one sender: one verdict per send, in order. The steps run side
 * by side (the balance read starts with them; it is awaited only for priced sends). When
 * several refuse a send, its answer is the first of: sender connection, media named by id
 * (media), template (templates), blacklist (contacts), window (conversations), balance (billing).
 */
export async function checkSends(
  p: Principal,
  sender: Sender,
  outs: readonly OutgoingMessage[],
): Promise<SendVerdict[]> {
  if (sender.connectionStatus === "DISCONNECTED") {
    const refusal = new MessagingError(
      "SENDER_DISCONNECTED",
      sender.deactivatedAt
        ? `Sender ${sender.phoneNumber} was removed; its history stays, but it sends no more`
        : `Sender ${sender.phoneNumber} is disconnected; reconnect it to send`,
    );
    return outs.map(() => ({ ok: false, refusal }));
  }
  const balance = recentBalance(p.customerId);
  balance.catch(() => {});
  const [media, templates, blacklisted, windows] = await Promise.all([
    sendMediaVerdicts(
      p,
      outs.map((o) => o.payload),
    ),
    sendTemplates(p.customerId, sender, outs),
    blacklistedAmong(
      p.customerId,
      sender.id,
      outs.map((o) => o.recipient),
    ),
    windowRefusals(p.customerId, sender.id, outs),
  ]);
  const passed: (ApiError | Omit<CheckedSend, "payload">)[] = outs.map((out, i) => {
    const file = media[i];
    if (file && !file.ok) return file.refusal;
    const template = templates[i];
    if (template && !template.ok) return template.refusal;
    if (blacklisted[i]) return blacklistRefusal(sender, out.recipient);
    const windowClosed = windows[i];
    if (windowClosed) return windowClosed;
    const found = template?.ok ? template.template : null;
    return { out, template: found, pricingCategory: pricingCategoryOf(out, found), media: file?.media ?? null };
  });
  const priced = passed.flatMap((v) => (v instanceof ApiError ? [] : [v.pricingCategory]));
  const unaffordable = priced.length > 0 ? await balanceRefusals(p.customerId, priced, balance) : [];
  let n = 0;
  return passed.map((v): SendVerdict => {
    if (v instanceof ApiError) return { ok: false, refusal: v };
    const refusal = unaffordable[n++];
    if (refusal) return { ok: false, refusal };
    return { ok: true, send: { ...v, payload: outgoingPayload(v.out, v.template) } };
  });
}

function blacklistRefusal(sender: Sender, recipient: string): ApiError {
  return new MessagingError(
    "RECIPIENT_BLACKLISTED",
    `${recipient} is on the blacklist of sender ${sender.phoneNumber}`,
    {
      recipient,
      providerCode: UNDELIVERABLE,
    },
  );
}

const pricingCategoryOf = (out: OutgoingMessage, template: Template | null) =>
  out.directSend?.category ?? template?.category.toLowerCase() ?? "service";

function outgoingPayload(out: OutgoingMessage, template: Template | null): ProviderMessagePayload {
  let payload = out.payload;
  if (out.directSend && template) {
    payload = {
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: out.payload.to,
      type: "template",
      template: {
        name: template.name,
        language: { code: template.language },
        components: directSendComponents(out.directSend.text),
      },
    };
  }
  // Text the database cannot store (a lone surrogate, NUL) leaves as U+FFFD, the same
  // bytes as the stored row (the input schemas refuse it in the first place).
  return storableValue(payload).value;
}
