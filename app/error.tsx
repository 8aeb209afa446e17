"use client";
// A page that failed on the server: the database briefly unreachable (a restart, a
// fail-over), or anything unexpected. Next hides the cause in production; the message says
// what a person can do, and "Try again" renders the page afresh from the server.
import Link from "next/link";
import { button } from "@/components/ui/classes";

export default function PageError({ retry }: { error: Error & { digest?: string }; retry: () => void }) {
  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-12 text-center">
      <p className="mb-6 text-2xl font-bold tracking-tight">Switchboard</p>
      <h1 className="text-xl font-semibold">This page could not load</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400" data-testid="page-error">
        Switchboard is briefly unavailable, for example while its database restarts. Try again in a few seconds.
      </p>
      <p className="mt-6 flex justify-center gap-4">
        <button type="button" className={button} onClick={() => retry()}>
          Try again
        </button>
        <Link className="self-center text-blue-700 underline dark:text-blue-400" href="/">
          Dashboard
        </Link>
      </p>
    </main>
  );
}
