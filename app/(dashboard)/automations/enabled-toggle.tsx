"use client";
import { useRouter } from "next/navigation";
import { useTransition } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, buttonSecondary } from "@/components/ui/classes";
import { updateRuleAction } from "./actions";

/** Switches a rule on or off. */
export function EnabledToggle({ uid, enabled, name }: { uid: string; enabled: boolean; name: string }) {
  const toast = useToast();
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <button
      type="button"
      className={enabled ? buttonSecondary : button}
      disabled={pending}
      aria-label={`${enabled ? "Disable" : "Enable"} ${name}`}
      onClick={() =>
        start(async () => {
          const r = await updateRuleAction({ uid, rule: { enabled: !enabled } });
          if (r.ok) toast.success(enabled ? "Rule disabled" : "Rule enabled");
          else toast.error(r.message);
          router.refresh();
        })
      }
    >
      {enabled ? "Disable" : "Enable"}
    </button>
  );
}
