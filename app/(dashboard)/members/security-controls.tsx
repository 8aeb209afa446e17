"use client";
// The members page's account-security controls (docs/security.md): end every session of a
// member, and (owners) require two-factor sign-in of every member.
import { ActionButton } from "@/components/dashboard/action-button";
import { endMemberSessionsAction, requireTwoFactorAction } from "./actions";

export function EndMemberSessionsButton({ userId, email }: { userId: string; email: string }) {
  return (
    <ActionButton
      action={() => endMemberSessionsAction({ userId })}
      success={`Every session of ${email} ended`}
      label="End sessions"
      pendingLabel="Ending…"
    />
  );
}

export function RequireTwoFactorToggle({ required }: { required: boolean }) {
  return (
    <ActionButton
      action={() => requireTwoFactorAction({ required: !required })}
      success={required ? "Two-factor is no longer required" : "Two-factor is now required of every member"}
      label={required ? "Stop requiring two-factor" : "Require two-factor for every member"}
      pendingLabel="Saving…"
    />
  );
}
