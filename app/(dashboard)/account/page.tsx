// Account security (docs/security.md): the member's own password, two-factor and active
// sessions. Every member may open it; while the account requires two-factor and the member
// has none, every other page sends them here (lib/dashboard/guard.ts).
import type { Metadata } from "next";
import { actionsColumn, DataTable } from "@/components/dashboard/data-table";
import { CardSection } from "@/components/ui/card-section";
import { td } from "@/components/ui/classes";
import { formatDateTime } from "@/components/ui/format";
import { requirePermission } from "@/lib/dashboard/guard";
import { mediaUsage } from "@/lib/domains/media/service";
import { listMySessions } from "@/lib/domains/security/sessions";
import { twoFactorState } from "@/lib/domains/security/two-factor";
import { formatFileSize } from "../inbox/media-format";
import { PasswordForm } from "./password-form";
import { EndOtherSessionsButton, EndSessionButton } from "./session-controls";
import { TwoFactorPanel } from "./two-factor-panel";

export const metadata: Metadata = { title: "Account security · Switchboard" };

const SESSION_COLUMNS = [
  { key: "device", label: "Device" },
  { key: "ip", label: "IP address" },
  { key: "lastSeenAt", label: "Last seen" },
  { key: "createdAt", label: "Signed in" },
  actionsColumn(),
];

export default async function AccountPage() {
  const p = await requirePermission("account");
  const [twoFactor, sessions, media] = await Promise.all([twoFactorState(p), listMySessions(p), mediaUsage(p)]);
  const share = media.quotaBytes > 0 ? Math.min(100, (media.usedBytes / media.quotaBytes) * 100) : 100;
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Account security</h1>
      {p.twoFactorSetupRequired ? (
        <p
          role="alert"
          className="rounded-md border border-amber-400 bg-amber-50 p-3 text-amber-950 dark:bg-amber-950 dark:text-amber-100"
        >
          This account requires two-factor authentication. Set it up below to continue.
        </p>
      ) : null}
      <CardSection id="two-factor" title="Two-factor authentication">
        <TwoFactorPanel enabled={twoFactor.enabled} recoveryCodesLeft={twoFactor.recoveryCodesLeft} />
      </CardSection>
      <CardSection id="password" title="Password">
        <PasswordForm />
      </CardSection>
      <CardSection id="media-usage" title="Media storage">
        {/* The account's files (uploads and what contacts sent), against its quota (docs/media.md "Quota"). */}
        <p data-testid="media-usage">
          {formatFileSize(media.usedBytes)} of {formatFileSize(media.quotaBytes)} used by {media.files}{" "}
          {media.files === 1 ? "file" : "files"}
        </p>
        <meter
          className="mt-2 w-full"
          aria-label="Media storage used"
          min={0}
          max={100}
          high={90}
          value={Number(share.toFixed(1))}
        />
      </CardSection>
      <section aria-labelledby="session-list" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="session-list" className="text-lg font-semibold">
            Active sessions
          </h2>
          <EndOtherSessionsButton disabled={sessions.length < 2} />
        </div>
        <DataTable label="Active sessions" columns={SESSION_COLUMNS} rowCount={sessions.length} empty={null}>
          {sessions.map((s) => (
            <tr key={s.id} data-testid="session-row" data-current={s.current}>
              <td className={td}>
                {s.device}
                {s.current ? <span className="ml-2 text-xs">(this browser)</span> : null}
              </td>
              <td className={`${td} font-mono`}>{s.ip ?? "—"}</td>
              <td className={td}>{formatDateTime(s.lastSeenAt)}</td>
              <td className={td}>{formatDateTime(s.createdAt)}</td>
              <td className={td}>{s.current ? null : <EndSessionButton sessionId={s.id} device={s.device} />}</td>
            </tr>
          ))}
        </DataTable>
      </section>
    </div>
  );
}
