"use client";
// Reads the default sender's business account templates from the provider (syncTemplatesAction).
import { ActionButton } from "@/components/dashboard/action-button";
import { syncTemplatesAction } from "./actions";

export function SyncButton() {
  return (
    <ActionButton
      action={() => syncTemplatesAction({})}
      success="Templates synced from the provider"
      label="Sync from provider"
      pendingLabel="Syncing…"
    />
  );
}
