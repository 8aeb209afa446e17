"use client";
import { ActionButton } from "@/components/dashboard/action-button";
import { button } from "@/components/ui/classes";
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
  return (
    <ActionButton
      action={() => redeliverAction({ senderId: senderPhone, uid, deliveryId })}
      success="Queued for redelivery"
      label="Redeliver"
      pendingLabel="Queuing…"
    />
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
  return (
    <ActionButton
      action={() => sendTestEventAction({ senderId: senderPhone, uid })}
      success="Test event queued"
      label="Send test event"
      pendingLabel="Sending…"
      className={button}
      disabled={disabled}
      title={disabled ? "Set the webhook ACTIVE to send events" : undefined}
    />
  );
}
