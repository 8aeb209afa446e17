// Where the dashboard guard (lib/dashboard/guard.ts) sends a member whose role lacks the
// permission a page or action needs (docs/members.md).
import type { Metadata } from "next";
import { card, link, muted } from "@/components/ui/classes";
import { IntentLink } from "@/components/ui/intent-link";
import { requirePermission } from "@/lib/dashboard/guard";
import { flatParams, type RawSearchParams } from "@/lib/dashboard/search-params";
import { isPermission, ROLE_HOME } from "@/lib/domains/auth/permissions";

export const metadata: Metadata = { title: "No access · Switchboard" };

type Props = { searchParams: Promise<RawSearchParams> };

export default async function NoAccessPage({ searchParams }: Props) {
  const p = await requirePermission("dashboard");
  const { need } = flatParams(await searchParams);
  const role = p.member?.role;
  return (
    <section className={card} aria-labelledby="no-access-title">
      <h1 id="no-access-title" className="text-2xl font-semibold">
        You do not have access to this page
      </h1>
      <p className="mt-2">
        Your role{role ? ` (${role})` : ""} does not include{" "}
        {isPermission(need) ? <strong>{need}</strong> : "this part of the dashboard"}. An owner or admin can change your
        role on the Members page.
      </p>
      <p className={`mt-4 ${muted}`}>
        <IntentLink href={role ? ROLE_HOME[role] : "/"} className={link}>
          Go to your start page
        </IntentLink>
      </p>
    </section>
  );
}
