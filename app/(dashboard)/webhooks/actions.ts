"use server";
import { z } from "zod";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { actionSender } from "@/lib/domains/senders/dashboard-scope";
import { redeliver, sendTestEvent } from "@/lib/domains/webhooks/deliveries";
import { RotateSecretBody, WebhookCreateBody, WebhookUpdateBody } from "@/lib/domains/webhooks/schemas";
import { createWebhook, rotateSigningSecret, updateWebhook } from "@/lib/domains/webhooks/service";

/** The sender whose webhook an action changes (the page's sender, set up). */
const OnSender = z.object({ senderId: z.string({ error: "senderId must be a phone number string" }) });

/** The webhook form's labels, for refusals the service words with the API's field names. */
const LABELS = { endpointUrl: "Endpoint URL" };

export const createWebhookAction = defineAction({
  permission: "webhooks",
  labels: LABELS,
  schema: WebhookCreateBody,
  run: async ({ principal, input }) => {
    const sender = await actionSender(principal, input.senderId);
    const { webhook, signingSecret } = await createWebhook(principal, sender, input.webhook);
    return { uid: webhook.id, signingSecret };
  },
  revalidate: "/webhooks",
});

export const updateWebhookAction = defineAction({
  permission: "webhooks",
  labels: LABELS,
  schema: WebhookUpdateBody.extend({ uid: RecordId }),
  run: async ({ principal, input }) => {
    await updateWebhook(principal, await actionSender(principal, input.senderId), input.uid, input.webhook);
  },
  revalidate: ({ input }) => `/webhooks/${input.uid}`,
});

export const redeliverAction = defineAction({
  permission: "webhooks",
  schema: OnSender.extend({ uid: RecordId, deliveryId: RecordId }),
  run: async ({ principal, input }) => {
    await redeliver(principal, await actionSender(principal, input.senderId), input.uid, input.deliveryId);
  },
});

export const sendTestEventAction = defineAction({
  permission: "webhooks",
  schema: OnSender.extend({ uid: RecordId }),
  run: async ({ principal, input }) => {
    const { eventId } = await sendTestEvent(principal, await actionSender(principal, input.senderId), input.uid);
    return { eventId };
  },
});

/** Rotates the signing secret; the new one is returned once (docs/event-pipeline.md "Secret rotation"). */
export const rotateSecretAction = defineAction({
  permission: "webhooks",
  schema: RotateSecretBody.extend({ uid: RecordId }),
  run: async ({ principal, input }) => {
    const sender = await actionSender(principal, input.senderId);
    const { signingSecret } = await rotateSigningSecret(principal, sender, input.uid, input.gracePeriodSeconds);
    return { signingSecret };
  },
  revalidate: ({ input }) => `/webhooks/${input.uid}`,
});
