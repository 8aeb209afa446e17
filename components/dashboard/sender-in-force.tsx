// The one line that tells which sender a sender-scoped page (or the composer) acts on:
// the one chosen in the header, or else the account's default (components/dashboard/sender-scope.ts).
// See docs/dashboard.md.
import type { ReactNode } from "react";

export type SenderInForceInfo = { phoneNumber: string; displayName: string | null; isDefault: boolean };

export const senderInfo = (s: SenderInForceInfo): SenderInForceInfo => ({
  phoneNumber: s.phoneNumber,
  displayName: s.displayName,
  isDefault: s.isDefault,
});

export function SenderInForce({
  sender,
  chosen,
  lead = "Sender",
  children,
}: {
  /** null: every sender of the account (a page that can show them all). */
  sender: SenderInForceInfo | null;
  /** Whether the sender was picked in the header (?sender=), not defaulted. */
  chosen: boolean;
  /** What the line starts with, e.g. "Sends from". */
  lead?: string;
  children?: ReactNode;
}) {
  const how = !sender
    ? "switch to one sender in the header"
    : chosen
      ? `chosen in the header${sender.isDefault ? " (the default sender)" : ""}`
      : "the account's default sender; switch in the header";
  return (
    <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="sender-in-force">
      {lead}:{" "}
      {sender ? (
        <strong className="font-mono font-semibold" data-testid="sender-in-force-number">
          {sender.phoneNumber}
        </strong>
      ) : (
        <strong data-testid="sender-in-force-number">all senders</strong>
      )}
      {sender?.displayName ? ` (${sender.displayName})` : ""} · {how}
      {children}
    </p>
  );
}
