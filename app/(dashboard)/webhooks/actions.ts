"use server";
import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { requirePermission } from "@/lib/dashboard/guard";
import { actionSender } from "@/lib/domains/senders/dashboard-scope";
import { redeliver, sendTestEvent } from "@/lib/domains/webhooks/deliveries";
import { RotateSecretBody, WebhookCreateInput, WebhookPatch } from "@/lib/domains/webhooks/schemas";
import { createWebhook, rotateSigningSecret, updateWebhook } from "@/lib/domains/webhooks/service";

export async function createWebhookAction(
  senderPhone: string,
  raw: unknown,
): Promise<ActionResult<{ uid: string; signingSecret: string }>> {
  const p = await requirePermission("webhooks");
  const result = await runAction(async () => {
    const sender = await actionSender(p, senderPhone);
    const { webhook, signingSecret } = await createWebhook(p, sender, WebhookCreateInput.parse(raw));
    return { uid: webhook.id, signingSecret };
  }, raw);
  if (result.ok) revalidatePath("/webhooks");
  return result;
}

export async function updateWebhookAction(senderPhone: string, uid: string, raw: unknown): Promise<ActionResult> {
  const p = await requirePermission("webhooks");
  const result = await runAction(async () => {
    const sender = await actionSender(p, senderPhone);
    await updateWebhook(p, sender, uid, WebhookPatch.parse(raw));
    return undefined;
  }, raw);
  if (result.ok) revalidatePath(`/webhooks/${uid}`);
  return result;
}

export async function redeliverAction(senderPhone: string, uid: string, deliveryId: string): Promise<ActionResult> {
  const p = await requirePermission("webhooks");
  return runAction(async () => {
    await redeliver(p, await actionSender(p, senderPhone), uid, deliveryId);
    return undefined;
  });
}

export async function sendTestEventAction(
  senderPhone: string,
  uid: string,
): Promise<ActionResult<{ eventId: string }>> {
  const p = await requirePermission("webhooks");
  return runAction(async () => {
    const { eventId } = await sendTestEvent(p, await actionSender(p, senderPhone), uid);
    return { eventId };
  });
}

/** Rotates the signing secret; the new one is returned once (docs/event-pipeline.md "Secret rotation"). */
export async function rotateSecretAction(
  senderPhone: string,
  uid: string,
  gracePeriodSeconds: unknown,
): Promise<ActionResult<{ signingSecret: string }>> {
  const p = await requirePermission("webhooks");
  const result = await runAction(async () => {
    const body = RotateSecretBody.parse({ gracePeriodSeconds });
    const { signingSecret } = await rotateSigningSecret(
      p,
      await actionSender(p, senderPhone),
      uid,
      body.gracePeriodSeconds,
    );
    return { signingSecret };
  });
  if (result.ok) revalidatePath(`/webhooks/${uid}`);
  return result;
}
