"use client";
import { useRouter } from "next/navigation";
import { type FormEvent, useRef, useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { buttonDanger, buttonSecondary, input, label } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
// The thread's own controls beside close/reopen (docs/inbox.md): mark as unread (back to the
// list, where it shows unread), the hand-off banner, and blacklisting or unblocking the contact
// with the reason shown as it was given (the notice above the messages says it). Blacklisting uses the blacklist page's server actions
// (the same services as POST /blacklist and /blacklist/remove, permission contacts.write).
import { IntentLink } from "@/components/ui/intent-link";
import type { BlacklistStanding } from "@/lib/domains/contacts/blacklist";
import type { PublicConversation } from "@/lib/domains/conversations/schemas";
import { addBlacklistAction, removeBlacklistAction } from "../blacklist/actions";

const SOURCE_LABEL: Record<string, string> = { api: "through the API", dashboard: "from the dashboard" };

/** Marks the conversation unread and goes back to the list, so opening it does not read it again. */
export function MarkUnreadButton({ onMark, backHref }: { onMark: () => Promise<unknown>; backHref: string }) {
  const router = useRouter();
  const toast = useToast();
  const [pending, setPending] = useState(false);
  return (
    <button
      type="button"
      className={buttonSecondary}
      disabled={pending}
      onClick={async () => {
        setPending(true);
        try {
          await onMark();
          router.push(backHref);
        } catch (error) {
          toast.error(error instanceof Error ? error.message : "Could not mark it unread");
        } finally {
          setPending(false);
        }
      }}
    >
      Mark as unread
    </button>
  );
}

/** A chatbot handed the conversation off: a person should answer (cleared by a person's reply). */
export function HandoffNotice({ c }: { c: PublicConversation }) {
  if (!c.waitingForPerson || !c.handoffAt) return null;
  return (
    <p
      className="rounded-md border border-amber-300 bg-amber-50 p-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-200"
      data-testid="handoff-notice"
    >
      <strong>Waiting for a person</strong> since {formatDateTime(c.handoffAt)}: the chatbot handed this conversation
      off. Your reply ends the wait.
    </p>
  );
}

/** Why the contact is blacklisted, as it was given: an opt-out keyword, or a block with its reason. */
function blacklistDescription(standing: BlacklistStanding | null): string {
  if (!standing) return "This contact is on the sender's blacklist.";
  if (standing.source === "opt-out") return "This contact opted out (sent an opt-out keyword).";
  const how = SOURCE_LABEL[standing.source] ?? "";
  const reason = standing.reason ? `: "${standing.reason}"` : " (no reason given)";
  return `This contact was blacklisted ${how}${how ? " " : ""}on ${formatDateTime(standing.createdAt)}${reason}.`;
}

/** Above the messages of a blacklisted contact: why, and where to take them off the list. */
export function BlacklistedNotice({ c, standing }: { c: PublicConversation; standing: BlacklistStanding | null }) {
  if (!c.blacklisted) return null;
  return (
    <p
      className="rounded-md border border-red-300 bg-red-50 p-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
      data-testid="blacklisted-notice"
    >
      {blacklistDescription(standing)} Replies are disabled until they opt back in or are{" "}
      <IntentLink
        className="underline"
        href={`/blacklist?sender=${encodeURIComponent(c.senderId)}&search=${encodeURIComponent(c.contactPhoneNumber)}`}
      >
        removed from the blacklist
      </IntentLink>
      .
    </p>
  );
}

export function BlacklistControls({ c, onChange }: { c: PublicConversation; onChange: () => void }) {
  const toast = useToast();
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const run = async (work: () => Promise<{ ok: boolean; message?: string }>, success: string) => {
    setPending(true);
    try {
      const result = await work();
      if (result.ok) toast.success(success);
      else toast.error(result.message ?? "That did not work");
      onChange();
    } finally {
      setPending(false);
    }
  };
  if (c.blacklisted) {
    return (
      <button
        type="button"
        className={buttonSecondary}
        disabled={pending}
        onClick={() =>
          run(
            () => removeBlacklistAction({ senderId: c.senderId, phoneNumber: c.contactPhoneNumber }),
            `${c.contactPhoneNumber} unblocked`,
          )
        }
      >
        {pending ? "Unblocking…" : "Unblock contact"}
      </button>
    );
  }
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const reason = String(new FormData(e.currentTarget).get("reason") ?? "").trim();
    dialog.current?.close();
    void run(
      () =>
        addBlacklistAction({ senderId: c.senderId, phoneNumber: c.contactPhoneNumber, reason: reason || undefined }),
      `${c.contactPhoneNumber} blacklisted`,
    );
  };
  return (
    <>
      <button type="button" className={buttonSecondary} disabled={pending} onClick={() => dialog.current?.showModal()}>
        Blacklist contact
      </button>
      <dialog
        ref={dialog}
        aria-labelledby="blacklist-dialog-title"
        className="m-auto max-w-md rounded-lg p-6 text-slate-900 shadow-xl backdrop:bg-black/40 dark:bg-slate-900 dark:text-slate-100"
      >
        <form onSubmit={submit} className="space-y-3">
          <h2 id="blacklist-dialog-title" className="text-lg font-semibold">
            Blacklist {c.contactPhoneNumber}?
          </h2>
          <p className="text-sm">Sends to this contact from {c.senderId} are refused until you unblock them.</p>
          <div>
            <label htmlFor="blacklist-reason" className={label}>
              Reason (optional, shown in the thread)
            </label>
            <input id="blacklist-reason" name="reason" maxLength={200} className={input} />
          </div>
          <div className="flex justify-end gap-2">
            <button type="button" className={buttonSecondary} onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" className={buttonDanger}>
              Blacklist contact
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
