"use client";
import { useAction } from "@/components/dashboard/use-action-form";
import { button, buttonSecondary } from "@/components/ui/classes";
import { redeliverAction, sendTestEventAction } from "../actions";

export function DeliveryActions({
  senderPhone,
  uid,
  deliveryId,
}: {
  senderPhone: string;
  uid: string;
  deliveryId: string;
}) {
  const { pending, run } = useAction();
  return (
    <button
      type="button"
      className={buttonSecondary}
      disabled={pending}
      onClick={() => run(() => redeliverAction(senderPhone, uid, deliveryId), "Queued for redelivery")}
    >
      {pending ? "Queuing…" : "Redeliver"}
    </button>
  );
}

export function TestEventButton({
  senderPhone,
  uid,
  disabled,
}: {
  senderPhone: string;
  uid: string;
  disabled: boolean;
}) {
  const { pending, run } = useAction();
  return (
    <button
      type="button"
      className={button}
      disabled={pending || disabled}
      title={disabled ? "Set the webhook ACTIVE to send events" : undefined}
      onClick={() => run(() => sendTestEventAction(senderPhone, uid), "Test event queued")}
    >
      {pending ? "Sending…" : "Send test event"}
    </button>
  );
}
