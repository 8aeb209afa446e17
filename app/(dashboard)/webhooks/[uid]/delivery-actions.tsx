"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useToast } from "@/components/dashboard/toast";
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
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      className={buttonSecondary}
      disabled={pending}
      onClick={() =>
        start(async () => {
          const r = await redeliverAction(senderPhone, uid, deliveryId);
          if (r.ok) toast.success("Queued for redelivery");
          else toast.error(r.message);
          router.refresh();
        })
      }
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
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      className={button}
      disabled={pending || disabled}
      title={disabled ? "Set the webhook ACTIVE to send events" : undefined}
      onClick={() =>
        start(async () => {
          const r = await sendTestEventAction(senderPhone, uid);
          if (r.ok) toast.success("Test event queued");
          else toast.error(r.message);
          router.refresh();
        })
      }
    >
      {pending ? "Sending…" : "Send test event"}
    </button>
  );
}
