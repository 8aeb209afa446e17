import type { Metadata } from "next";
import { actionsColumn, DataTable } from "@/components/dashboard/data-table";
import { CardSection } from "@/components/ui/card-section";
import { link, td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { IntentLink } from "@/components/ui/intent-link";
import { requirePermission } from "@/lib/dashboard/guard";
import { TOKEN_PERMISSION_SUMMARY, TOKEN_PERMISSIONS } from "@/lib/domains/auth/permissions";
import { listSenders } from "@/lib/domains/senders/service";
import { toPublicToken } from "@/lib/domains/tokens/serializers";
import { listTokens } from "@/lib/domains/tokens/service";
import { permissionsText } from "./permissions-text";
import { RevokeTokenButton } from "./revoke-button";
import { RotateTokenForm } from "./rotate-form";
import { TokenForm } from "./token-form";

export const metadata: Metadata = { title: "API tokens · Switchboard" };

export default async function TokensPage() {
  const p = await requirePermission("tokens");
  const [tokens, senders] = await Promise.all([listTokens(p), listSenders(p)]);
  const rows = tokens.map((t) => toPublicToken(t));
  // A rotation leaves two active tokens of one name: the newest is the successor, the others
  // are the replaced ones, working until they expire. Each row says which.
  const newestOfName = new Map<string, string>();
  for (const t of rows) {
    if (t.state !== "active") continue;
    const seen = rows.find((o) => o.id === newestOfName.get(t.name));
    if (!seen || seen.createdAt < t.createdAt) newestOfName.set(t.name, t.id);
  }
  const sharedName = (name: string) => rows.filter((o) => o.name === name && o.state === "active").length > 1;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h1 className="text-2xl font-semibold">API tokens</h1>
        <IntentLink href="/tokens/usage" className={link}>
          API usage of the whole account
        </IntentLink>
      </div>
      <CardSection id="new-token" title="Generate a token">
        <TokenForm
          senders={senders.map((s) => s.phoneNumber)}
          permissions={TOKEN_PERMISSIONS.map((name) => ({ name, summary: TOKEN_PERMISSION_SUMMARY[name] }))}
        />
      </CardSection>
      <section aria-labelledby="token-list">
        <h2 id="token-list" className="mb-3 text-lg font-semibold">
          Your tokens
        </h2>
        <DataTable
          label="Tokens"
          columns={[
            { key: "name", label: "Name" },
            { key: "prefix", label: "Prefix" },
            { key: "scope", label: "Scope" },
            { key: "permissions", label: "Permissions" },
            { key: "created", label: "Created" },
            { key: "used", label: "Last used" },
            { key: "expires", label: "Expires" },
            { key: "state", label: "State" },
            actionsColumn(),
          ]}
          rowCount={rows.length}
          empty={<EmptyState title="No tokens yet">Generate one above to call the API.</EmptyState>}
        >
          {rows.map((t) => (
            <tr key={t.id} data-testid="token-row">
              <td className={td}>
                <IntentLink
                  href={`/tokens/${t.id}`}
                  className={link}
                  aria-label={`Usage of “${t.name}” (${t.prefix}…)`}
                >
                  {t.name}
                </IntentLink>
                {t.state === "active" && sharedName(t.name) ? (
                  <span className="mt-0.5 block text-xs text-slate-600 dark:text-slate-400" data-testid="rotation-role">
                    {newestOfName.get(t.name) === t.id
                      ? "New token (after rotation)"
                      : `Replaced: works until ${t.expiresAt ? formatDateTime(t.expiresAt) : "revoked"}`}
                  </span>
                ) : null}
              </td>
              <td className={`${td} font-mono`}>{t.prefix}…</td>
              <td className={td}>{t.scope === "global" ? "Global" : `Number ${t.senderPhoneNumber}`}</td>
              <td className={td} data-testid="token-permissions">
                {permissionsText(t.permissions)}
              </td>
              <td className={td}>{formatDateTime(t.createdAt)}</td>
              <td className={td}>{t.lastUsedAt ? formatDateTime(t.lastUsedAt) : "Never"}</td>
              <td className={td}>{t.expiresAt ? formatDateTime(t.expiresAt) : "Never"}</td>
              <td className={td}>{t.state}</td>
              <td className={td}>
                {t.state === "revoked" ? null : (
                  <div className="flex flex-wrap items-start gap-2">
                    {t.state === "active" && <RotateTokenForm id={t.id} name={t.name} />}
                    <RevokeTokenButton id={t.id} name={t.name} />
                  </div>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
    </div>
  );
}
