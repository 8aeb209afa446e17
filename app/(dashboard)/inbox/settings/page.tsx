// Inbox settings (docs/inbox.md): the account's saved replies, inserted in the reply box by
// typing `/`, and each sender's round-robin auto-assignment. Owners and admins only.
import type { Metadata } from "next";
import { actionsColumn, DataTable } from "@/components/dashboard/data-table";
import { CardSection } from "@/components/ui/card-section";
import { td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { requirePermission } from "@/lib/dashboard/guard";
import { autoAssignSettings } from "@/lib/domains/conversations/auto-assign";
import { readReceiptsOn } from "@/lib/domains/conversations/read-receipts";
import { listSavedReplies } from "@/lib/domains/conversations/saved-replies";
import { AutoAssignForm, ReadReceiptsForm, SavedReplyControls, SavedReplyForm } from "./settings-forms";

export const metadata: Metadata = { title: "Inbox settings · Switchboard" };
export const dynamic = "force-dynamic";

const REPLY_COLUMNS = [{ key: "shortcut", label: "Shortcut" }, { key: "text", label: "Text" }, actionsColumn()];

export default async function InboxSettingsPage() {
  const p = await requirePermission("inbox.settings");
  const [replies, senders, readReceipts] = await Promise.all([
    listSavedReplies(p),
    autoAssignSettings(p),
    readReceiptsOn(p),
  ]);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Inbox settings</h1>
      <CardSection id="new-saved-reply" title="Add a saved reply">
        <SavedReplyForm />
      </CardSection>
      <section aria-labelledby="saved-replies" className="space-y-3">
        <h2 id="saved-replies" className="text-lg font-semibold">
          Saved replies
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Type <kbd>/</kbd> and the shortcut in the inbox's reply box to insert one. A reply with buttons goes out as a
          buttons message: its text is the message, and the contact taps a button.
        </p>
        <DataTable
          label="Saved replies"
          columns={REPLY_COLUMNS}
          rowCount={replies.length}
          empty={<EmptyState title="No saved replies yet" />}
        >
          {replies.map((r) => (
            <tr key={r.id} data-testid="saved-reply-row">
              <td className={`${td} font-mono`}>/{r.shortcut}</td>
              <td className={`${td} whitespace-pre-wrap`}>
                {r.text}
                {r.buttons ? (
                  <ul className="mt-1 flex flex-wrap gap-1" aria-label={`Buttons of /${r.shortcut}`}>
                    {r.buttons.map((b) => (
                      <li
                        key={b.id}
                        className="rounded border border-slate-300 px-2 py-0.5 text-xs dark:border-slate-600"
                      >
                        {b.title} <span className="font-mono text-slate-600 dark:text-slate-400">({b.id})</span>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </td>
              <td className={td}>
                <SavedReplyControls id={r.id} shortcut={r.shortcut} text={r.text} buttons={r.buttons} />
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
      <CardSection id="auto-assignment" title="Auto-assignment">
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
          When on, a new message in an unassigned conversation of the sender goes to its next online agent (round robin;
          online: a dashboard open within the last minute), skipping agents who already hold the cap of open
          conversations.
        </p>
        {senders.length === 0 ? <p className="text-sm">No senders yet.</p> : null}
        <ul className="space-y-3">
          {senders.map((s) => (
            <li key={s.senderId}>
              <AutoAssignForm sender={s.phoneNumber} autoAssign={s.autoAssign} cap={s.cap} />
            </li>
          ))}
        </ul>
      </CardSection>
      <CardSection id="read-receipts" title="Read receipts">
        <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">
          When on, opening an unread conversation shows the contact their messages as read, and typing a reply shows
          them that someone is typing. Off, contacts see neither.
        </p>
        <ReadReceiptsForm enabled={readReceipts} />
      </CardSection>
    </div>
  );
}
