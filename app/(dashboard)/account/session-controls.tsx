"use client";
import { ActionButton } from "@/components/dashboard/action-button";
import { endOtherSessionsAction, endSessionAction } from "./actions";

export function EndSessionButton({ sessionId, device }: { sessionId: string; device: string }) {
  return (
    <ActionButton
      action={() => endSessionAction({ sessionId })}
      success={`Session on ${device} ended`}
      label="End session"
      pendingLabel="Ending…"
    />
  );
}

export function EndOtherSessionsButton({ disabled }: { disabled: boolean }) {
  return (
    <ActionButton
      action={() => endOtherSessionsAction({})}
      success="Every other session ended"
      label="End all other sessions"
      pendingLabel="Ending…"
      disabled={disabled}
    />
  );
}
