"use client";
// The thread's assignee (docs/inbox.md "Assignment"): who handles it, "Assign to me", a
// picker of the members it can go to (members with the inbox who may see its sender), and
// "Unassign". The server checks the rules (POST /conversations/{uid}, lib/api/routes/conversations.ts).
import { useMutation, useQuery } from "@tanstack/react-query";
import { buttonSecondary, input } from "@/components/ui/classes";
import { dashboardApi } from "@/lib/dashboard/client";
import { queryKeys } from "@/lib/dashboard/query-keys";
import type { PublicAssignee } from "@/lib/domains/conversations/schemas";

type Member = { email: string; name: string | null };

export function AssignmentControls({
  uid,
  assignee,
  me,
  onChanged,
}: {
  uid: string;
  assignee: PublicAssignee;
  me: string | null;
  onChanged: () => void;
}) {
  const members = useQuery({
    queryKey: queryKeys.assignees(uid),
    // Without the list the picker is disabled; "Assign to me" and "Unassign" still work.
    queryFn: (): Promise<Member[]> =>
      dashboardApi.assignees(uid).then(
        (a) => a.members,
        () => [],
      ),
    staleTime: 30_000,
  });
  const assign = useMutation({
    mutationFn: (email: string | null) => dashboardApi.updateConversation(uid, { assignee: email }),
    onSuccess: onChanged,
  });
  const pickerId = `assignee-${uid}`;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="assignment">
      <span>
        <span className="font-medium">Assigned to: </span>
        <span data-testid="assignee">{assignee ? (assignee.name ?? assignee.email) : "nobody"}</span>
      </span>
      {me && assignee?.email !== me ? (
        <button type="button" className={buttonSecondary} disabled={assign.isPending} onClick={() => assign.mutate(me)}>
          Assign to me
        </button>
      ) : null}
      <label htmlFor={pickerId} className="sr-only">
        Assign to
      </label>
      <select
        id={pickerId}
        className={`${input} w-auto`}
        value=""
        disabled={assign.isPending || !members.data?.length}
        onChange={(e) => {
          if (e.target.value) assign.mutate(e.target.value);
        }}
      >
        <option value="">Assign to…</option>
        {(members.data ?? [])
          .filter((m) => m.email !== assignee?.email)
          .map((m) => (
            <option key={m.email} value={m.email}>
              {m.name ? `${m.name} (${m.email})` : m.email}
            </option>
          ))}
      </select>
      {assignee ? (
        <button
          type="button"
          className={buttonSecondary}
          disabled={assign.isPending}
          onClick={() => assign.mutate(null)}
        >
          Unassign
        </button>
      ) : null}
      {assign.isError ? (
        <p role="alert" className="w-full text-red-700 dark:text-red-300">
          {assign.error.message}
        </p>
      ) : null}
    </div>
  );
}
