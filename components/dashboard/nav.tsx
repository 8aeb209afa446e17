"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
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
  { href: "/contacts", label: "Contacts", permission: "contacts.read" },
  { href: "/broadcasts", label: "Broadcasts", permission: "broadcasts" },
  { href: "/chatbots", label: "Chatbots", permission: "chatbots" },
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
  const qs = sender ? `?sender=${encodeURIComponent(sender)}` : "";
  const { data } = useQuery({
    enabled,
    queryKey: ["unread", sender ?? ""],
    queryFn: async (): Promise<{ unread: number }> => {
      const res = await fetch(`/api/dashboard/conversations/unread${qs}`);
      if (!res.ok) throw new Error("Could not count unread conversations");
      return res.json();
    },
    refetchInterval: live ? false : 5_000,
    staleTime: 0,
  });
  return data?.unread ?? 0;
}

/** Main navigation; keeps the chosen sender (?sender=) when moving between pages. */
export function Nav({ permissions }: { permissions: readonly Permission[] }) {
  const pathname = usePathname();
  const sender = useSearchParams().get("sender");
  const suffix = sender ? `?sender=${encodeURIComponent(sender)}` : "";
  const unread = useUnread(sender, permissions.includes("inbox"));
  const item =
    "block rounded-md px-3 py-2 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600";
  return (
    <nav aria-label="Main">
      <ul className="flex flex-wrap gap-1 md:flex-col">
        {ITEMS.filter((i) => permissions.includes(i.permission)).map((i) => {
          const active = pathname === i.href || pathname.startsWith(`${i.href}/`);
          return (
            <li key={i.href}>
              <Link
                href={`${i.href}${suffix}`}
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
              </Link>
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
