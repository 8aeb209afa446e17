// The delivery funnel of a broadcast: sent (of the recipients it was to send to), then
// delivered, read and replied as shares of those sent. A recipient's status only moves
// forward (lib/domains/broadcasts/recipient-statuses.ts), so a read one was delivered too.
import { muted } from "@/components/ui/classes";
import type { CountsPublic } from "@/lib/domains/broadcasts/schemas";
import { percent } from "../labels";

export function Funnel({ counts }: { counts: CountsPublic }) {
  const sent = counts.accepted + counts.sent + counts.delivered + counts.read;
  const toSend = counts.total - counts.skipped;
  const stages = [
    { id: "sent", label: "Sent", n: sent, rate: percent(sent, toSend), of: "of recipients to send to" },
    { id: "delivered", label: "Delivered", n: counts.delivered + counts.read, of: "of sent" },
    { id: "read", label: "Read", n: counts.read, of: "of sent" },
    { id: "replied", label: "Replied", n: counts.replied, of: "of sent" },
  ].map((s) => ({ ...s, rate: s.rate ?? percent(s.n, sent) }));
  return (
    <ol className="space-y-3">
      {stages.map((s) => (
        <li key={s.id} data-testid={`funnel-${s.id}`}>
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <span className="font-medium">{s.label}</span>
            <span>
              <span className="font-semibold">{s.n.toLocaleString("en-US")}</span>{" "}
              <span className={muted}>
                ({s.rate} {s.of})
              </span>
            </span>
          </div>
          <div
            className="mt-1 h-2 w-full overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
            aria-hidden="true"
          >
            <div
              className="h-full rounded-full bg-indigo-700 dark:bg-indigo-400"
              style={{ width: `${(s.n / Math.max(1, s.id === "sent" ? toSend : sent)) * 100}%` }}
            />
          </div>
        </li>
      ))}
    </ol>
  );
}
