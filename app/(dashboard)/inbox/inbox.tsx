"use client";
// The inbox: the conversation list (unread first, then newest; or SLA due soonest) with its
// filter, sort, search and page in the URL, and the chosen conversation (?c=) beside it; on a phone one at a time.
import { useQuery } from "@tanstack/react-query";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { colorsOf, LabelChip, type LabelColors } from "@/components/dashboard/label-chip";
import { Pager } from "@/components/dashboard/pager";
import { useLiveUpdates } from "@/components/dashboard/use-live-updates";
import { input, label, muted } from "@/components/ui/classes";
import { IntentLink } from "@/components/ui/intent-link";
import type { PageBlock } from "@/lib/core/pagination";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";
import { livePoll } from "@/lib/dashboard/query-retry";
import type { PublicConversation } from "@/lib/domains/conversations/schemas";
import type { LabelColor } from "@/lib/domains/labels/schemas";
import { slaState } from "@/lib/domains/sla/display";
import { type Pinned, withPinned } from "./pinned";
import { type TemplateOption, Thread } from "./thread";
import { dayLabel, timeOf } from "./thread-format";

type ListAnswer = { conversations: PublicConversation[]; unread: number; pagination: PageBlock };

const FILTERS = [
  { id: "all", label: "All", changes: { status: undefined, unread: undefined, waiting: undefined } },
  { id: "open", label: "Open", changes: { status: "open", unread: undefined, waiting: undefined } },
  { id: "closed", label: "Closed", changes: { status: "closed", unread: undefined, waiting: undefined } },
  { id: "unread", label: "Unread", changes: { status: undefined, unread: "true", waiting: undefined } },
  { id: "waiting", label: "Waiting for a person", changes: { status: undefined, unread: undefined, waiting: "true" } },
] as const;

/** Whose conversations (docs/inbox.md "Assignment"): the URL's `assignee`. */
const ASSIGNEE_FILTERS = [
  { id: "", label: "Everyone's" },
  { id: "me", label: "Mine" },
  { id: "none", label: "Unassigned" },
] as const;

export const LIST_POLL_MS = 3_000;
/** How often the SLA colours are worked out again (a due time passes without any notice). */
const SLA_TICK_MS = 5_000;

/** The time now, moving every `ms`. */
function useNow(ms: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}

export function Inbox({
  templates,
  me,
  canBlacklist = false,
  labels = [],
}: {
  templates: TemplateOption[];
  me: string | null;
  canBlacklist?: boolean;
  /** The account's labels, sorted by name: the filter, the list items' colours, the thread's picker. */
  labels?: { name: string; color: LabelColor }[];
}) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const current = Object.fromEntries(params.entries());
  const {
    sender = "",
    status = "",
    unread = "",
    waiting = "",
    search = "",
    page = "1",
    assignee = "",
    label: labelFilter = "",
    sort = "",
    c: selected,
  } = current;
  const colors = colorsOf(labels);
  const filter =
    waiting === "true"
      ? "waiting"
      : unread === "true"
        ? "unread"
        : (status.toLowerCase() as "open" | "closed" | "") || "all";
  const hrefWith = (changes: Record<string, string | undefined>) => {
    const next = new URLSearchParams(params.toString());
    for (const [k, v] of Object.entries(changes)) {
      if (v) next.set(k, v);
      else next.delete(k);
    }
    const qs = next.toString();
    return qs ? `${pathname}?${qs}` : pathname;
  };

  const listQs = new URLSearchParams(
    Object.entries({ sender, status, unread, waiting, search, page, assignee, label: labelFilter, sort }).filter(
      ([, v]) => v !== "",
    ),
  ).toString();
  // Live (docs/inbox.md "Live updates"): refetched when a notice says it changed; polled only without the stream.
  const live = useLiveUpdates();
  const list = useQuery({
    queryKey: queryKeys.inbox(listQs),
    queryFn: (): Promise<ListAnswer> => dashboardApi.inbox(listQs),
    refetchInterval: livePoll(live, LIST_POLL_MS),
    staleTime: 0,
  });
  // The conversation being read, as last seen in this view (see withPinned).
  const pinned = useRef<Pinned | null>(null);
  const served = list.data?.conversations ?? [];
  const at = served.findIndex((c) => c.uid === selected);
  // Pinned only from an answer of this view, never from a cached one shown while it refetches:
  // coming back to a view must not keep what an older answer of it listed.
  if (selected && at >= 0 && !list.isFetching) pinned.current = { view: listQs, item: served[at], index: at };
  else if (pinned.current && (pinned.current.view !== listQs || pinned.current.item.uid !== selected)) {
    pinned.current = null;
  }
  const shown = withPinned(served, selected, pinned.current, listQs);

  // Search follows typing (debounced) and Enter; the URL keeps it.
  // The URL only overwrites the box when it changed from elsewhere (back button, a link),
  // never with a value this box pushed while the user kept typing.
  const [term, setTerm] = useState(search);
  const pushed = useRef(search);
  useEffect(() => {
    if (search !== pushed.current) setTerm(search);
    pushed.current = search;
  }, [search]);
  const pushSearch = (value: string) => {
    pushed.current = value;
    router.replace(hrefWith({ search: value || undefined, page: undefined }));
  };
  useEffect(() => {
    const value = term.trim();
    if (value === pushed.current) return;
    const t = setTimeout(() => pushSearch(value), 400);
    return () => clearTimeout(t);
  });
  const submitSearch = (e: FormEvent) => {
    e.preventDefault();
    pushSearch(term.trim());
  };

  const pill =
    "rounded-full px-3 py-1 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600";
  const listPane = (
    <section aria-labelledby="inbox-list-title" className={`${selected ? "hidden md:block" : ""} min-w-0 space-y-3`}>
      <h2 id="inbox-list-title" className="sr-only">
        Conversations
      </h2>
      <search>
        <form onSubmit={submitSearch}>
          <label htmlFor="inbox-search" className={label}>
            Search by name or number
          </label>
          <input
            id="inbox-search"
            type="search"
            className={input}
            value={term}
            onChange={(e) => setTerm(e.target.value)}
            autoComplete="off"
          />
        </form>
      </search>
      <nav aria-label="Filter conversations">
        <ul className="flex flex-wrap gap-2">
          {FILTERS.map((f) => (
            <li key={f.id}>
              <IntentLink
                href={hrefWith({ ...f.changes, page: undefined })}
                aria-current={filter === f.id ? "page" : undefined}
                className={`${pill} ${
                  filter === f.id
                    ? "bg-indigo-700 text-white"
                    : "bg-slate-100 text-slate-800 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-100"
                }`}
              >
                {f.label}
              </IntentLink>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Filter by assignee">
        <ul className="flex flex-wrap gap-2">
          {ASSIGNEE_FILTERS.map((f) => (
            <li key={f.id || "all"}>
              <IntentLink
                href={hrefWith({ assignee: f.id || undefined, page: undefined })}
                aria-current={assignee === f.id ? "page" : undefined}
                className={`${pill} ${
                  assignee === f.id
                    ? "bg-indigo-700 text-white"
                    : "bg-slate-100 text-slate-800 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-100"
                }`}
              >
                {f.label}
              </IntentLink>
            </li>
          ))}
        </ul>
      </nav>
      <nav aria-label="Sort conversations">
        <ul className="flex flex-wrap gap-2">
          {[
            { id: "", label: "Newest" },
            { id: "due", label: "Due soonest" },
          ].map((o) => (
            <li key={o.id || "newest"}>
              <IntentLink
                href={hrefWith({ sort: o.id || undefined, page: undefined })}
                aria-current={sort === o.id ? "page" : undefined}
                className={`${pill} ${
                  sort === o.id
                    ? "bg-indigo-700 text-white"
                    : "bg-slate-100 text-slate-800 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-100"
                }`}
              >
                {o.label}
              </IntentLink>
            </li>
          ))}
        </ul>
      </nav>
      {labels.length > 0 ? (
        <div>
          <label htmlFor="inbox-label-filter" className={label}>
            Label
          </label>
          <select
            id="inbox-label-filter"
            className={input}
            value={labelFilter}
            onChange={(e) => router.replace(hrefWith({ label: e.target.value || undefined, page: undefined }))}
          >
            <option value="">Any label</option>
            {labels.map((l) => (
              <option key={l.name} value={l.name}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {list.isLoading ? <p className={muted}>Loading…</p> : null}
      {list.isError ? <p className="text-sm text-red-700 dark:text-red-300">Could not load conversations.</p> : null}
      {list.data && shown.length === 0 ? (
        <p className={muted}>
          {search || filter !== "all" || assignee || labelFilter ? "No conversations match." : "No conversations yet."}
        </p>
      ) : null}
      {list.data && shown.length > 0 ? (
        <ul
          aria-label="Conversations"
          className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white dark:divide-slate-700 dark:border-slate-700 dark:bg-slate-900"
        >
          {shown.map((c) => (
            <ConversationItem
              key={c.uid}
              c={c}
              href={hrefWith({ c: c.uid })}
              active={c.uid === selected}
              showSender={!sender}
              colors={colors}
            />
          ))}
        </ul>
      ) : null}
      {list.data && list.data.pagination.totalPages > 1 ? (
        <Pager
          path={pathname}
          params={Object.fromEntries(Object.entries(current).filter(([k]) => k !== "c"))}
          pagination={list.data.pagination}
        />
      ) : null}
    </section>
  );

  return (
    <div className="grid gap-4 md:grid-cols-[minmax(0,20rem)_minmax(0,1fr)]" data-live={live ? "on" : "polling"}>
      {listPane}
      {selected ? (
        <Thread
          key={selected}
          uid={selected}
          templates={templates}
          backHref={hrefWith({ c: undefined })}
          me={me}
          canBlacklist={canBlacklist}
          labels={labels.map((l) => l.name)}
          colors={colors}
        />
      ) : (
        <p className={`${muted} hidden md:block`}>Choose a conversation to read and reply.</p>
      )}
    </div>
  );
}

function ConversationItem({
  c,
  href,
  active,
  showSender,
  colors,
}: {
  c: PublicConversation;
  href: string;
  active: boolean;
  showSender: boolean;
  colors: LabelColors;
}) {
  const name = c.contactName ?? c.contactPhoneNumber;
  const when = dayLabel(c.lastMessageAt) === "Today" ? timeOf(c.lastMessageAt) : c.lastMessageAt.slice(0, 10);
  return (
    <li>
      <IntentLink
        href={href}
        aria-current={active ? "true" : undefined}
        data-testid="conversation-item"
        className={`block px-3 py-2 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-600 ${
          active ? "bg-indigo-50 dark:bg-indigo-950" : "hover:bg-slate-50 dark:hover:bg-slate-800"
        }`}
      >
        <span className="flex items-baseline gap-2">
          <span className={`min-w-0 flex-1 truncate ${c.unreadCount > 0 ? "font-bold" : "font-medium"}`}>{name}</span>
          <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">{when}</span>
        </span>
        {c.contactName ? (
          <span className="block font-mono text-xs text-slate-600 dark:text-slate-400">{c.contactPhoneNumber}</span>
        ) : null}
        <span className="mt-1 flex items-center gap-2">
          <span className="min-w-0 flex-1 truncate text-sm text-slate-700 dark:text-slate-300">
            {c.lastMessagePreview}
          </span>
          {c.waitingForPerson ? (
            <span
              className="shrink-0 rounded bg-amber-100 px-1.5 text-xs font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-200"
              data-testid="waiting-badge"
            >
              Waiting
            </span>
          ) : null}
          {c.sla ? <SlaBadge sla={c.sla} /> : null}
          {c.status === "CLOSED" ? (
            <span className="shrink-0 rounded bg-slate-100 px-1.5 text-xs text-slate-700 dark:bg-slate-800 dark:text-slate-300">
              Closed
            </span>
          ) : null}
          {c.unreadCount > 0 ? (
            <span className="shrink-0 rounded-full bg-indigo-700 px-2 text-xs font-semibold text-white">
              {c.unreadCount}
              <span className="sr-only"> unread</span>
            </span>
          ) : null}
        </span>
        {showSender ? <span className="block text-xs text-slate-600 dark:text-slate-400">via {c.senderId}</span> : null}
        {c.assignee ? (
          <span className="block text-xs text-slate-600 dark:text-slate-400" data-testid="conversation-assignee">
            → {c.assignee.name ?? c.assignee.email}
          </span>
        ) : null}
        {c.labels.length > 0 ? (
          <span className="mt-1 flex flex-wrap gap-1" data-testid="conversation-labels">
            <span className="sr-only">Labels: </span>
            {c.labels.map((name) => (
              <LabelChip key={name} name={name} color={colors[name.toLowerCase()]} />
            ))}
          </span>
        ) : null}
      </IntentLink>
    </li>
  );
}

const SLA_CLASSES = {
  ok: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-200",
  soon: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-200",
  breached: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-200",
} as const;

/**
 * The SLA's soonest due time (docs/reports.md "SLA policies"): amber within 15 minutes, red once
 * missed. Only these badges tick (not the list or the thread beside it).
 */
function SlaBadge({ sla }: { sla: PublicConversation["sla"] }) {
  const now = useNow(SLA_TICK_MS);
  const shown = slaState(sla, now);
  if (!shown) return null;
  const { state, dueAt } = shown;
  const due = dueAt ? (dayLabel(dueAt) === "Today" ? timeOf(dueAt) : dueAt.slice(0, 10)) : null;
  return (
    <span
      className={`shrink-0 rounded px-1.5 text-xs font-semibold ${SLA_CLASSES[state]}`}
      data-testid="sla-badge"
      data-state={state}
    >
      {state === "breached" ? "SLA missed" : `Due ${due}`}
      {state === "soon" ? <span className="sr-only"> (soon)</span> : null}
    </span>
  );
}
