// /docs: the integrator docs' index (the pages of lib/docs/pages.ts and the API reference).
import type { Metadata } from "next";
import Link from "next/link";
import { DocsShell } from "@/components/docs/docs-shell";
import { DOC_PAGES } from "@/lib/docs/pages";

export const metadata: Metadata = { title: "Docs · Switchboard" };

export default function DocsIndexPage() {
  return (
    <DocsShell>
      <h1 className="mb-2 text-3xl font-bold tracking-tight">Switchboard docs</h1>
      <p className="mb-6 max-w-3xl text-slate-700 dark:text-slate-300">
        Everything you need to build on the Switchboard API: start with the quickstart, keep the error reference and the
        webhook guide at hand, and use the API reference for every request and answer.
      </p>
      <ul className="grid max-w-3xl gap-3 sm:grid-cols-2">
        {[
          ...DOC_PAGES,
          { slug: "api", title: "API reference", summary: "Every operation, with a \u201ctry it\u201d." },
        ].map((p) => (
          <li key={p.slug} className="rounded-md border border-slate-200 p-4 dark:border-slate-800">
            <Link className="font-semibold text-blue-700 underline dark:text-blue-400" href={`/docs/${p.slug}`}>
              {p.title}
            </Link>
            <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">{p.summary}</p>
          </li>
        ))}
      </ul>
    </DocsShell>
  );
}
