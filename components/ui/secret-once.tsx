"use client";
import { CopyButton } from "./copy-button";

/** A secret shown exactly once, with a copy button and a plain warning. */
export function SecretOnce({ title, value, testId }: { title: string; value: string; testId: string }) {
  return (
    <section
      aria-label={title}
      className="rounded-lg border border-amber-400 bg-amber-50 p-4 text-amber-950 dark:border-amber-600 dark:bg-amber-950 dark:text-amber-100"
    >
      <p className="font-semibold">{title}</p>
      <p className="mt-1 text-sm">
        Copy it now and store it somewhere safe. It will not be shown again: once you leave or reload this page it is
        gone for good.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <code data-testid={testId} className="break-all rounded bg-white px-2 py-1 font-mono text-sm text-slate-900">
          {value}
        </code>
        <CopyButton value={value} />
      </div>
    </section>
  );
}
