// One integrator docs page (/docs/quickstart, /docs/errors, ...): docs/integrators/<slug>.md,
// rendered at build time (lib/docs/pages.ts). /docs/api is its own page (the API reference).
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { DocsProse, DocsShell } from "@/components/docs/docs-shell";
import { DOC_PAGES, docMarkdown, docPage, renderMarkdown } from "@/lib/docs/pages";

type Props = { params: Promise<{ slug: string }> };

export const dynamicParams = false;

export function generateStaticParams() {
  return DOC_PAGES.map((p) => ({ slug: p.slug }));
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const page = docPage((await params).slug);
  return { title: page ? `${page.title} · Switchboard docs` : "Switchboard docs" };
}

export default async function DocPageView({ params }: Props) {
  const { slug } = await params;
  if (!docPage(slug)) notFound();
  return (
    <DocsShell current={slug}>
      <DocsProse html={renderMarkdown(docMarkdown(slug))} />
    </DocsShell>
  );
}
