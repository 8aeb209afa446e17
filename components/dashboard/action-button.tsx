"use client";
// A button that runs one server action, toasts its outcome and refreshes (useAction).
import type { ReactNode } from "react";
import { useAction } from "@/components/dashboard/use-action-form";
import { buttonSecondary } from "@/components/ui/classes";
import type { ActionResult } from "@/lib/dashboard/action-result";

export function ActionButton<T>({
  action,
  success,
  label,
  pendingLabel = label,
  className = buttonSecondary,
  disabled = false,
  title,
}: {
  action: () => Promise<ActionResult<T>>;
  success: string;
  label: ReactNode;
  pendingLabel?: ReactNode;
  className?: string;
  disabled?: boolean;
  title?: string;
}) {
  const { pending, run } = useAction();
  return (
    <button
      type="button"
      className={className}
      disabled={pending || disabled}
      title={title}
      onClick={() => run(action, success)}
    >
      {pending ? pendingLabel : label}
    </button>
  );
}
