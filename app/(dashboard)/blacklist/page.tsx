// The chosen sender's blacklist: numbers it never messages (added here, by the API, or by
// the contact's opt-out keyword; docs/conversations.md "Opt-out and the blacklist").

import type { Metadata } from "next";
import { actionsColumn, DataTable } from "@/components/dashboard/data-table";
import { Pager } from "@/components/dashboard/pager";
import { SenderInForce, senderInfo } from "@/components/dashboard/sender-in-force";
import { CardSection } from "@/components/ui/card-section";
import { buttonSecondary, input, label, muted, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { formatCount } from "@/lib/core/count";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, listQuery, type RawSearchParams } from "@/lib/dashboard/search-params";
import { can } from "@/lib/domains/auth/access";
import { listBlacklist } from "@/lib/domains/contacts/blacklist";
import { BlacklistQuery } from "@/lib/domains/contacts/schemas";
import { toPublicBlacklistEntry } from "@/lib/domains/contacts/serializers";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { AddToBlacklist, RemoveFromBlacklist } from "./blacklist-forms";

export const metadata: Metadata = { title: "Blacklist · Switchboard" };
export const dynamic = "force-dynamic";

const COLUMNS = [
  { key: "number", label: "Number" },
  { key: "reason", label: "Reason" },
  { key: "source", label: "Source" },
  { key: "added", label: "Added" },
  actionsColumn(),
];

const SOURCE_LABEL: Record<string, string> = { api: "API", dashboard: "Dashboard", "opt-out": "Opt-out keyword" };

export default async function BlacklistPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const p = await requirePermission("contacts.read");
  const params = flatParams(await searchParams);
  const sender = await pageSender(p, params.sender);
  if (!sender) {
    return <EmptyState title="No sender numbers yet">Connect a phone number first.</EmptyState>;
  }
  const query = listQuery(BlacklistQuery, params);
  const { entries, pagination } = await listBlacklist(p, sender, query);
  const rows = entries.map(toPublicBlacklistEntry);
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">Blacklist</h1>
        <SenderInForce sender={senderInfo(sender)} chosen={Boolean(params.sender)} />
        <p className={muted}>
          Numbers that sender {sender.phoneNumber} never messages. A contact who sends an opt-out keyword (STOP,
          UNSUBSCRIBE…) is added here; START or UNSTOP takes them off.
        </p>
      </div>
      {can(p, "contacts.write") ? (
        <CardSection id="blacklist-add" title="Add a number">
          <AddToBlacklist senderId={sender.phoneNumber} />
        </CardSection>
      ) : null}
      <section aria-labelledby="blacklist-entries">
        <h2 id="blacklist-entries" className="mb-3 text-lg font-semibold">
          Blacklisted numbers ({formatCount(pagination.total)})
        </h2>
        <form method="get" className="mb-4 flex flex-wrap items-end gap-3">
          {params.sender && <input type="hidden" name="sender" value={params.sender} />}
          <div>
            <label htmlFor="blacklist-search" className={label}>
              Search number
            </label>
            <input id="blacklist-search" name="search" defaultValue={params.search ?? ""} className={input} />
          </div>
          <button type="submit" className={buttonSecondary}>
            Search
          </button>
        </form>
        <DataTable
          label="Blacklisted numbers"
          columns={COLUMNS}
          rowCount={rows.length}
          empty={<EmptyState title={params.search ? "No number matches" : "No blacklisted numbers"} />}
        >
          {rows.map((e) => (
            <tr key={e.phoneNumber} data-testid="blacklist-row">
              <td className={`${td} font-mono`}>{e.phoneNumber}</td>
              <td className={td}>{e.reason ?? "—"}</td>
              <td className={td}>{SOURCE_LABEL[e.source] ?? e.source}</td>
              <td className={td}>{formatDateTime(e.createdAt)}</td>
              <td className={td}>
                <RemoveFromBlacklist senderId={sender.phoneNumber} phoneNumber={e.phoneNumber} />
              </td>
            </tr>
          ))}
        </DataTable>
        <Pager path="/blacklist" params={params} pagination={pagination} />
      </section>
    </div>
  );
}
