"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useToast } from "@/components/dashboard/toast";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { revokeTokenAction } from "./actions";

export function RevokeTokenButton({ id, name }: { id: string; name: string }) {
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <ConfirmButton
      label={pending ? "Revoking…" : "Revoke"}
      title={`Revoke “${name}”?`}
      confirmLabel="Revoke token"
      disabled={pending}
      onConfirm={() =>
        start(async () => {
          const result = await revokeTokenAction(id);
          if (result.ok) toast.success(`Token “${name}” revoked. It no longer works on the API.`);
          else toast.error(result.message);
          router.refresh();
        })
      }
    >
      Any integration using this token stops working at once. This cannot be undone.
    </ConfirmButton>
  );
}
