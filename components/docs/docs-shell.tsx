// The frame of the integrator docs pages (/docs, /docs/<page>): a header with the way back
// to the dashboard and the API reference, the page list, and the page itself. /docs/api keeps
// its own frame (the OpenAPI renderer's).
import Link from "next/link";
import type { ReactNode } from "react";
import { DOC_PAGES } from "@/lib/docs/pages";

const link = "text-blue-700 underline dark:text-blue-400";

export function DocsShell({ current, children }: { current?: string; children: ReactNode }) {
  return (
    <div className="min-h-screen">
      <header className="flex h-12 items-center gap-4 border-b border-slate-200 px-4 text-sm dark:border-slate-800">
        <Link className="font-semibold" href="/docs">
          Switchboard docs
        </Link>
        <Link className={link} href="/docs/api">
          API reference
        </Link>
        <Link className={`ml-auto ${link}`} href="/">
          Dashboard
        </Link>
      </header>
      <div className="mx-auto flex max-w-6xl flex-col gap-8 px-4 py-8 md:flex-row">
        <nav aria-label="Docs" className="shrink-0 md:w-56">
          <ul className="space-y-1 text-sm">
            {DOC_PAGES.map((p) => (
              <li key={p.slug}>
                <Link
                  href={`/docs/${p.slug}`}
                  aria-current={p.slug === current ? "page" : undefined}
                  className={`block rounded px-2 py-1 ${
                    p.slug === current
                      ? "bg-slate-100 font-semibold dark:bg-slate-800"
                      : "text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
                  }`}
                >
                  {p.title}
                </Link>
              </li>
            ))}
            <li>
              <Link
                href="/docs/api"
                className="block rounded px-2 py-1 text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
              >
                API reference
              </Link>
            </li>
          </ul>
        </nav>
        <main className="min-w-0 flex-1">{children}</main>
      </div>
    </div>
  );
}

// Styles for the rendered Markdown (no typography plugin): headings, paragraphs, lists,
// code, tables, in light and dark.
const PROSE = [
  "max-w-3xl leading-relaxed text-slate-800 dark:text-slate-200",
  "[&_h1]:mb-4 [&_h1]:text-3xl [&_h1]:font-bold [&_h1]:tracking-tight",
  "[&_h2]:mt-10 [&_h2]:mb-3 [&_h2]:text-2xl [&_h2]:font-semibold",
  "[&_h3]:mt-8 [&_h3]:mb-2 [&_h3]:text-lg [&_h3]:font-semibold [&_h3]:scroll-mt-4",
  "[&_p]:my-3 [&_ul]:my-3 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-3 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1",
  "[&_a]:text-blue-700 [&_a]:underline dark:[&_a]:text-blue-400",
  "[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_code]:text-[0.9em] dark:[&_code]:bg-slate-800",
  "[&_pre]:my-4 [&_pre]:overflow-x-auto [&_pre]:rounded-md [&_pre]:bg-slate-100 [&_pre]:p-4 [&_pre]:text-sm dark:[&_pre]:bg-slate-900",
  "[&_pre_code]:bg-transparent [&_pre_code]:p-0",
  "[&_.docs-table]:my-4 [&_.docs-table]:overflow-x-auto",
  "[&_table]:w-full [&_table]:border-collapse [&_table]:text-sm",
  "[&_th]:border-b [&_th]:border-slate-300 [&_th]:px-2 [&_th]:py-1 [&_th]:text-left dark:[&_th]:border-slate-700",
  "[&_td]:border-b [&_td]:border-slate-200 [&_td]:px-2 [&_td]:py-1 [&_td]:align-top dark:[&_td]:border-slate-800",
].join(" ");

/** Markdown of our own (docs/integrators), rendered by lib/docs/pages.ts: raw HTML in it is escaped. */
export function DocsProse({ html }: { html: string }) {
  // The repository's own Markdown, rendered with raw HTML escaped: no user text reaches it.
  return <article className={PROSE} dangerouslySetInnerHTML={{ __html: html }} />;
}
