// Shared Tailwind class strings so every form control looks and focuses the same way.
export const input =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm focus:border-indigo-600 focus:outline-none focus:ring-2 focus:ring-indigo-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
export const label = "block text-sm font-medium text-slate-700 dark:text-slate-200";
export const button =
  "inline-flex items-center justify-center gap-2 rounded-md bg-indigo-700 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-indigo-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 focus-visible:ring-offset-2 disabled:opacity-60 dark:focus-visible:ring-offset-slate-950";
export const buttonSecondary =
  "inline-flex items-center justify-center gap-2 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600 disabled:opacity-60 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800";
export const buttonDanger =
  "inline-flex items-center justify-center gap-2 rounded-md bg-red-700 px-3 py-2 text-sm font-semibold text-white shadow-sm hover:bg-red-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-red-600 disabled:opacity-60";
export const card = "rounded-lg border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-700 dark:bg-slate-900";
export const table = "min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-700";
export const th = "px-3 py-2 text-left font-semibold text-slate-700 dark:text-slate-200";
export const td = "px-3 py-2 text-slate-800 dark:text-slate-200";
export const muted = "text-sm text-slate-600 dark:text-slate-400";
export const link = "text-indigo-700 underline hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-200";
