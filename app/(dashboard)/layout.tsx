import { type ReactNode, Suspense } from "react";
import { LogoutButton } from "@/components/dashboard/logout-button";
import { LowBalanceBanner } from "@/components/dashboard/low-balance-banner";
import { Nav } from "@/components/dashboard/nav";
import { Providers } from "@/components/dashboard/providers";
import { SenderSwitcher } from "@/components/dashboard/sender-switcher";
import { ThemeToggle } from "@/components/dashboard/theme-toggle";
import { IntentLink } from "@/components/ui/intent-link";
import { requirePermission } from "@/lib/dashboard/guard";
import { permissionsOf, roleHas } from "@/lib/domains/auth/permissions";
import { lowBalanceState } from "@/lib/domains/billing/low-balance";
import { listSenders } from "@/lib/domains/senders/service";

export const dynamic = "force-dynamic";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const principal = await requirePermission("dashboard");
  // An agent limited to some senders sees only those in the switcher (listSenders narrows).
  const [senders, balance] = await Promise.all([listSenders(principal), lowBalanceState(principal)]);
  const permissions = principal.member ? permissionsOf(principal.member.role) : [];
  const options = senders.map((s) => ({
    phoneNumber: s.phoneNumber,
    label: s.displayName ? `${s.displayName} (${s.phoneNumber})` : s.phoneNumber,
  }));
  return (
    <Providers>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-slate-900"
      >
        Skip to content
      </a>
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-950">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-3 px-4 py-3">
          <IntentLink href="/billing" className="text-lg font-bold tracking-tight">
            Switchboard
          </IntentLink>
          <div className="ml-auto flex flex-wrap items-center gap-2">
            <Suspense>
              <SenderSwitcher
                senders={options}
                // listSenders orders as the default resolution does: the first is the default.
                defaultSender={senders[0]?.phoneNumber ?? null}
              />
            </Suspense>
            {principal.member ? (
              <span className="text-sm text-slate-600 dark:text-slate-400" data-testid="signed-in-as">
                {principal.member.email} · {principal.member.role}
              </span>
            ) : null}
            <ThemeToggle />
            <LogoutButton />
          </div>
        </div>
      </header>
      <LowBalanceBanner
        state={balance}
        showAmounts={principal.member ? roleHas(principal.member.role, "billing") : true}
      />
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-6 md:flex-row">
        <aside className="md:w-48 md:shrink-0">
          <Suspense>
            <Nav permissions={permissions} />
          </Suspense>
        </aside>
        <main id="main" className="min-w-0 flex-1">
          {children}
        </main>
      </div>
    </Providers>
  );
}
