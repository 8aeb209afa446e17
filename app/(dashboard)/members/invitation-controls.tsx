"use client";
import { ActionButton } from "@/components/dashboard/action-button";
import { useAction } from "@/components/dashboard/use-action-form";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { resendInvitationAction, revokeInvitationAction } from "./actions";

export function InvitationControls({ id, email }: { id: string; email: string }) {
  const revoke = useAction();
  return (
    <div className="flex flex-wrap gap-2">
      <ActionButton
        action={() => resendInvitationAction({ invitationId: id })}
        success={`Invitation sent again to ${email} (the earlier link no longer works)`}
        label="Resend"
        pendingLabel="Sending…"
      />
      <ConfirmButton
        label={revoke.pending ? "Revoking…" : "Revoke"}
        title={`Revoke the invitation of ${email}?`}
        confirmLabel="Revoke invitation"
        disabled={revoke.pending}
        onConfirm={() =>
          revoke.run(() => revokeInvitationAction({ invitationId: id }), `Invitation of ${email} revoked`)
        }
      >
        The link in the email stops working.
      </ConfirmButton>
    </div>
  );
}
