"use client";
import { useAction } from "@/components/dashboard/use-action-form";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { revokeTokenAction } from "./actions";

export function RevokeTokenButton({ id, name }: { id: string; name: string }) {
  const { pending, run } = useAction();
  return (
    <ConfirmButton
      label={pending ? "Revoking…" : "Revoke"}
      title={`Revoke “${name}”?`}
      confirmLabel="Revoke token"
      disabled={pending}
      onConfirm={() =>
        run(() => revokeTokenAction({ tokenId: id }), `Token “${name}” revoked. It no longer works on the API.`)
      }
    >
      Any integration using this token stops working at once. This cannot be undone.
    </ConfirmButton>
  );
}
