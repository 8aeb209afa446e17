"use client";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { noSenderChoiceLabel } from "./sender-scope";

export type SenderOption = { phoneNumber: string; label: string };

/**
 * One sender, or none chosen, kept in the URL as ?sender=<E.164> (page resets to 1). None
 * chosen reads "All senders" on account-wide pages and "Default sender: ..." on pages that
 * act on one sender (sender-scope.ts).
 */
export function SenderSwitcher({ senders, defaultSender }: { senders: SenderOption[]; defaultSender: string | null }) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  const current = params.get("sender") ?? "";
  function change(value: string) {
    const next = new URLSearchParams(params.toString());
    if (value) next.set("sender", value);
    else next.delete("sender");
    next.delete("page");
    const qs = next.toString();
    router.push(qs ? `${pathname}?${qs}` : pathname);
  }
  return (
    <div className="flex items-center gap-2">
      <label htmlFor="sender-switcher" className="text-sm font-medium text-slate-700 dark:text-slate-200">
        Sender
      </label>
      <select
        id="sender-switcher"
        value={current}
        onChange={(e) => change(e.target.value)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm dark:border-slate-600 dark:bg-slate-900"
      >
        <option value="">{noSenderChoiceLabel(pathname, defaultSender)}</option>
        {senders.map((s) => (
          <option key={s.phoneNumber} value={s.phoneNumber}>
            {s.label}
          </option>
        ))}
      </select>
    </div>
  );
}
