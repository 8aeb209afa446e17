"use client";
import { type ReactNode, useId, useRef } from "react";
import { buttonDanger, buttonSecondary } from "./classes";

/** A button that asks first, in a modal <dialog> (focus trapped, Escape cancels). */
export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel,
  dismissLabel = "Cancel",
  onConfirm,
  disabled,
}: {
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  /** The button that closes the question and does nothing (where "Cancel" would be ambiguous). */
  dismissLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  // The title is a sentence ("Remove a@b.c?"): spaces would split it into several ids.
  const titleId = useId();
  return (
    <>
      <button type="button" className={buttonSecondary} onClick={() => ref.current?.showModal()} disabled={disabled}>
        {label}
      </button>
      <dialog
        ref={ref}
        aria-labelledby={titleId}
        className="m-auto max-w-md rounded-lg p-6 text-slate-900 shadow-xl backdrop:bg-black/40 dark:bg-slate-900 dark:text-slate-100"
      >
        <h2 id={titleId} className="text-lg font-semibold">
          {title}
        </h2>
        <div className="mt-2 text-sm">{children}</div>
        <div className="mt-4 flex justify-end gap-2">
          <button type="button" className={buttonSecondary} onClick={() => ref.current?.close()}>
            {dismissLabel}
          </button>
          <button
            type="button"
            className={buttonDanger}
            onClick={() => {
              ref.current?.close();
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}
