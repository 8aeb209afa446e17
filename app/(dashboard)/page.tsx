import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { card, link } from "@/components/ui/classes";
import { IntentLink } from "@/components/ui/intent-link";
import { formatMoney } from "@/lib/core/money";
import { requirePermission } from "@/lib/dashboard/guard";
import { can } from "@/lib/domains/auth/access";
import { ROLE_HOME } from "@/lib/domains/auth/permissions";
import { onboardingProgress } from "@/lib/domains/onboarding/progress";

export const metadata: Metadata = { title: "Get started · Switchboard" };

// The dashboard home: the first-run checklist until every step is done (progress from the
// account's own data, lib/domains/onboarding/progress.ts), then Billing as before. Members
// who cannot set the account up (docs/members.md) land on their role's first page.
export default async function Home() {
  const p = await requirePermission("dashboard");
  const home = p.member ? ROLE_HOME[p.member.role] : "/billing";
  if (!can(p, "senders")) redirect(home);
  const progress = await onboardingProgress(p);
  if (progress.complete) redirect(home);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">Get started</h1>
      {progress.welcomeCredit ? (
        <p className={`${card} text-sm`} data-testid="welcome-credit">
          Your account starts with a welcome credit of{" "}
          <strong>{formatMoney(progress.welcomeCredit.amount, progress.welcomeCredit.currency)}</strong> on its ledger:
          it pays for your first messages, the provider's sample template <code>hello_world</code> included (simulated
          sends are priced like real ones).{" "}
          {can(p, "billing") ? (
            <IntentLink href="/billing/ledger" className={link}>
              See the ledger
            </IntentLink>
          ) : null}
        </p>
      ) : null}
      <section className={card} aria-labelledby="checklist-title">
        <h2 id="checklist-title" className="text-lg font-semibold">
          Your checklist
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          <span data-testid="onboarding-progress">
            {progress.done} of {progress.total}
          </span>{" "}
          done
        </p>
        <progress className="mt-2 w-full" max={progress.total} value={progress.done} aria-label="Checklist progress" />
        <ol className="mt-4 space-y-2">
          {progress.steps.map((step) => (
            <li
              key={step.key}
              data-testid={`step-${step.key}`}
              data-done={step.done}
              className="flex items-center gap-2"
            >
              <span aria-hidden="true">{step.done ? "✓" : "○"}</span>
              {step.done ? (
                <span className="text-slate-500 line-through dark:text-slate-400">{step.title}</span>
              ) : (
                <IntentLink href={step.href} className="text-blue-700 underline dark:text-blue-400">
                  {step.title}
                </IntentLink>
              )}
              <span className="sr-only">{step.done ? "(done)" : "(to do)"}</span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
