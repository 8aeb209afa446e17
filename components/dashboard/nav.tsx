"use client";
import { useQuery } from "@tanstack/react-query";
import { usePathname, useSearchParams } from "next/navigation";
import { useState } from "react";
import { IntentLink } from "@/components/ui/intent-link";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";
import { livePoll } from "@/lib/dashboard/query-retry";
import type { Permission } from "@/lib/domains/auth/permissions";
import { useLiveUpdates } from "./use-live-updates";

// Each page's permission (the guard checks it; the navigation only leaves out what the
// member's role cannot open).
const ITEMS: readonly { href: string; label: string; permission: Permission }[] = [
  { href: "/inbox", label: "Inbox", permission: "inbox" },
  { href: "/billing", label: "Billing", permission: "billing" },
  { href: "/messages", label: "Messages", permission: "inbox" },
  { href: "/templates", label: "Templates", permission: "templates" },
  { href: "/analytics", label: "Analytics", permission: "billing" },
  { href: "/reports", label: "Reports", permission: "reports" },
  { href: "/contacts", label: "Contacts", permission: "contacts.read" },
  { href: "/broadcasts", label: "Broadcasts", permission: "broadcasts" },
  { href: "/chatbots", label: "Chatbots", permission: "chatbots" },
  { href: "/automations", label: "Automations", permission: "automations" },
  { href: "/blacklist", label: "Blacklist", permission: "contacts.read" },
  { href: "/webhooks", label: "Webhooks", permission: "webhooks" },
  { href: "/tokens", label: "API tokens", permission: "tokens" },
  { href: "/senders", label: "Senders", permission: "senders" },
  { href: "/members", label: "Members", permission: "members" },
  { href: "/audit", label: "Audit log", permission: "audit" },
  { href: "/account", label: "Account security", permission: "account" },
];

/** Conversations with unread messages (the chosen sender's, or every sender's): live, polled only without the stream. */
function useUnread(sender: string | null, enabled: boolean): number {
  const live = useLiveUpdates(enabled);
  const { data } = useQuery({
    enabled,
    queryKey: queryKeys.unread(sender ?? ""),
    queryFn: () => dashboardApi.unread(sender),
    refetchInterval: livePoll(live, 5_000),
    staleTime: 0,
  });
  return data?.unread ?? 0;
}

/**
 * Main navigation; keeps the chosen sender (?sender=) when moving between pages. Beside the
 * page from md up; below, a compact menu (docs/dashboard.md "Narrow screens"): one "Menu"
 * button naming the page, with the unread count, that opens the list, so a phone's first
 * screen shows the page rather than every link; it closes on the next page.
 */
export function Nav({ permissions }: { permissions: readonly Permission[] }) {
  const pathname = usePathname();
  const sender = useSearchParams().get("sender");
  const suffix = sender ? `?sender=${encodeURIComponent(sender)}` : "";
  const unread = useUnread(sender, permissions.includes("inbox"));
  // Open on the page it was opened on: the next page finds it closed.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const items = ITEMS.filter((i) => permissions.includes(i.permission));
  const current = items.find((i) => pathname === i.href || pathname.startsWith(`${i.href}/`));
  const item =
    "block rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600";
  return (
    <nav aria-label="Main">
      <button
        type="button"
        className="flex w-full items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 md:hidden dark:border-slate-700"
        aria-expanded={open}
        aria-controls="main-nav-list"
        onClick={() => setOpenOn(open ? null : pathname)}
        data-testid="nav-menu-button"
      >
        <span aria-hidden="true">{open ? "✕" : "☰"}</span>
        <span>Menu</span>
        {current ? <span className="text-slate-600 dark:text-slate-400">· {current.label}</span> : null}
        {unread > 0 ? (
          <span className="ml-auto rounded-full bg-indigo-700 px-2 py-0.5 text-xs font-semibold text-white">
            {unread}
            <span className="sr-only"> unread</span>
          </span>
        ) : null}
      </button>
      <ul
        id="main-nav-list"
        className={`${open ? "mt-2 grid grid-cols-2 gap-1" : "hidden"} md:flex md:flex-col md:gap-1`}
      >
        {items.map((i) => {
          const active = i === current;
          return (
            <li key={i.href}>
              <IntentLink
                href={`${i.href}${suffix}`}
                onClick={() => setOpenOn(null)}
                aria-current={active ? "page" : undefined}
                className={`${item} ${
                  active
                    ? "bg-indigo-50 text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200"
                    : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
                }`}
              >
                {i.label}
                {i.href === "/inbox" && unread > 0 ? (
                  <span
                    className="ml-2 rounded-full bg-indigo-700 px-2 py-0.5 text-xs font-semibold text-white"
                    data-testid="unread-badge"
                  >
                    {unread}
                    <span className="sr-only"> unread</span>
                  </span>
                ) : null}
              </IntentLink>
            </li>
          );
        })}
        <li>
          <a
            href="/docs"
            className={`${item} text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800`}
          >
            Integrator docs
          </a>
        </li>
        <li>
          <a
            href="/docs/api"
            className={`${item} text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800`}
          >
            API docs
          </a>
        </li>
      </ul>
    </nav>
  );
}
