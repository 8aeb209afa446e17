// The integrator docs served under /docs (docs/integrators/*.md, one page each): the page
// list, and each page's Markdown rendered to HTML. The Markdown lives in the repository so
// that it reads on its own and a test (lib/docs/coverage.test.ts) can check it covers every
// error code, event type and route.
import { readFileSync } from "node:fs";
import path from "node:path";
import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";

export type DocPage = { slug: string; title: string; summary: string };

/** The pages in reading order; each is docs/integrators/<slug>.md, served at /docs/<slug>. */
export const DOC_PAGES: readonly DocPage[] = [
  {
    slug: "quickstart",
    title: "Quickstart",
    summary: "From sign-up to a verified webhook in ten minutes (curl and Node).",
  },
  { slug: "errors", title: "Error reference", summary: "Every error_code: its status, what it means, what to do." },
  {
    slug: "webhooks",
    title: "Webhooks for receivers",
    summary: "Payloads, signatures, retries and their schedule, recovery.",
  },
  { slug: "endpoints", title: "Endpoints", summary: "Every route, by area, with the versions it exists on." },
  {
    slug: "versioning",
    title: "Versioning and deprecation",
    summary: "What may change, what needs a new version, how long a deprecated one lives.",
  },
  { slug: "changelog", title: "Changelog", summary: "What changed in the API, newest first." },
  { slug: "migration", title: "Migrating from the provider's SDKs", summary: "Keep your SDK; change its base URL." },
];

export const docPage = (slug: string): DocPage | undefined => DOC_PAGES.find((p) => p.slug === slug);

/** The Markdown source of a page. */
export function docMarkdown(slug: string): string {
  return readFileSync(path.join(process.cwd(), "docs", "integrators", `${slug}.md`), "utf8");
}

/** A heading's anchor: its text in lower case, runs of anything but letters, digits and _ as "-" (`VALIDATION_FAILED` → validation_failed). */
export function headingId(text: string): string {
  return text
    .replace(/<[^>]*>/g, "")
    .replace(/&[a-z]+;|&#\d+;/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/**
 * The page's HTML: GitHub-flavoured Markdown (tables), raw HTML escaped (the source is ours,
 * but nothing needs it), an id on every heading so that links like /docs/errors#not_found
 * land, and code blocks and tables in keyboard-scrollable boxes (a wide one scrolls).
 */
export function renderMarkdown(markdown: string): string {
  return micromark(markdown, { extensions: [gfm()], htmlExtensions: [gfmHtml()] })
    .replace(
      /<h([1-6])>([\s\S]*?)<\/h\1>/g,
      (_, level, inner) => `<h${level} id="${headingId(inner)}">${inner}</h${level}>`,
    )
    .replace(/<pre>/g, '<pre tabindex="0">')
    .replace(/<table>/g, '<div class="docs-table" tabindex="0"><table>')
    .replace(/<\/table>/g, "</table></div>");
}
