// Members (docs/members.md): who is on the account with which role, open invitations, and
// the invitation form. Owners and admins only; an admin sees no controls on owners.
import type { Metadata } from "next";
import { actionsColumn, DataTable } from "@/components/dashboard/data-table";
import { CardSection } from "@/components/ui/card-section";
import { td } from "@/components/ui/classes";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime } from "@/components/ui/format";
import { requirePermission } from "@/lib/dashboard/guard";
import { ROLE_SUMMARY, ROLES, type Role } from "@/lib/domains/auth/permissions";
import { listInvitations } from "@/lib/domains/members/invitations";
import { toPublicInvitation, toPublicMember } from "@/lib/domains/members/serializers";
import { listMembers } from "@/lib/domains/members/service";
import { twoFactorRequired } from "@/lib/domains/security/two-factor";
import { listSenders } from "@/lib/domains/senders/service";
import { InvitationControls } from "./invitation-controls";
import { InviteForm } from "./invite-form";
import { MemberControls } from "./member-controls";
import { EndMemberSessionsButton, RequireTwoFactorToggle } from "./security-controls";

export const metadata: Metadata = { title: "Members · Switchboard" };

const MEMBER_COLUMNS = [
  { key: "email", label: "Email" },
  { key: "name", label: "Name" },
  { key: "role", label: "Role" },
  { key: "senders", label: "Senders" },
  { key: "lastLoginAt", label: "Last sign-in" },
  actionsColumn(),
];

const INVITATION_COLUMNS = [
  { key: "email", label: "Email" },
  { key: "role", label: "Role" },
  { key: "senders", label: "Senders" },
  { key: "state", label: "State" },
  { key: "expiresAt", label: "Expires" },
  { key: "invitedBy", label: "Invited by" },
  actionsColumn(),
];

export default async function MembersPage() {
  const p = await requirePermission("members");
  const [members, invitations, senders, required] = await Promise.all([
    listMembers(p),
    listInvitations(p),
    listSenders(p),
    twoFactorRequired(p),
  ]);
  const isOwner = p.member?.role === "owner";
  // An admin may neither appoint nor touch an owner (the services refuse it too).
  const grantable: Role[] = ROLES.filter((r) => isOwner || r !== "owner");
  const phones = senders.map((s) => s.phoneNumber);
  const now = new Date();
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Members</h1>
      <CardSection id="two-factor-policy" title="Two-factor authentication">
        <p className="mb-3 text-sm" data-testid="two-factor-policy">
          {required
            ? "Required: members without it set it up at their next sign-in."
            : "Optional: each member chooses on Account security."}
        </p>
        {isOwner ? <RequireTwoFactorToggle required={required} /> : null}
      </CardSection>
      <CardSection id="invite" title="Invite a member">
        <InviteForm roles={grantable.map((role) => ({ role, summary: ROLE_SUMMARY[role] }))} senders={phones} />
      </CardSection>
      <section aria-labelledby="member-list">
        <h2 id="member-list" className="mb-3 text-lg font-semibold">
          Members
        </h2>
        <DataTable label="Members" columns={MEMBER_COLUMNS} rowCount={members.length} empty={null}>
          {members.map(toPublicMember).map((m) => (
            <tr key={m.id} data-testid="member-row">
              <td className={td}>
                {m.email}
                {m.id === p.member?.userId ? <span className="ml-2 text-xs">(you)</span> : null}
              </td>
              <td className={td}>{m.name ?? "—"}</td>
              <td className={td}>{m.role}</td>
              <td className={`${td} font-mono`}>{m.senders ? m.senders.join(", ") || "none" : "all"}</td>
              <td className={td}>{m.lastLoginAt ? formatDateTime(m.lastLoginAt) : "Never"}</td>
              <td className={td}>
                {isOwner || m.role !== "owner" ? (
                  <div className="flex flex-wrap gap-2">
                    <EndMemberSessionsButton userId={m.id} email={m.email} />
                    <MemberControls
                      id={m.id}
                      email={m.email}
                      role={m.role}
                      memberSenders={m.senders}
                      roles={grantable}
                      senders={phones}
                    />
                  </div>
                ) : null}
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
      <section aria-labelledby="invitation-list">
        <h2 id="invitation-list" className="mb-3 text-lg font-semibold">
          Open invitations
        </h2>
        <DataTable
          label="Open invitations"
          columns={INVITATION_COLUMNS}
          rowCount={invitations.length}
          empty={
            <EmptyState title="No open invitations">
              Invite someone above: they get a link that works for 7 days.
            </EmptyState>
          }
        >
          {invitations
            .map((i) => toPublicInvitation(i, now))
            .map((i) => (
              <tr key={i.id} data-testid="invitation-row">
                <td className={td}>{i.email}</td>
                <td className={td}>{i.role}</td>
                <td className={`${td} font-mono`}>{i.senders ? i.senders.join(", ") : "all"}</td>
                <td className={td}>{i.state}</td>
                <td className={td}>{formatDateTime(i.expiresAt)}</td>
                <td className={td}>{i.invitedBy ?? "—"}</td>
                <td className={td}>
                  {isOwner || i.role !== "owner" ? <InvitationControls id={i.id} email={i.email} /> : null}
                </td>
              </tr>
            ))}
        </DataTable>
      </section>
    </div>
  );
}
