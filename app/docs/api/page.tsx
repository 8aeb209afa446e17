// The API reference: the OpenAPI document the API serves (/api/v3/openapi.json), rendered
// by a maintained OpenAPI renderer (api-reference.tsx) rather than markup of our own. The
// renderer's title (the document's info.title) is the page's h1, and its <main> the page's.
import type { Metadata } from "next";
import Link from "next/link";
import { ApiReference } from "./api-reference";

export const metadata: Metadata = { title: "API reference · Switchboard" };

export default function ApiReferencePage() {
  return (
    <div className="[--scalar-custom-header-height:3rem]">
      <header className="sticky top-0 z-20 flex h-12 items-center gap-4 border-b border-slate-200 bg-white px-4 text-sm dark:border-slate-800 dark:bg-slate-950">
        <p className="min-w-0 truncate font-semibold">Switchboard API reference</p>
        <a className="text-blue-700 underline dark:text-blue-400" href="/api/v3/openapi.json">
          openapi.json
        </a>
        <Link className="text-blue-700 underline dark:text-blue-400" href="/docs">
          Docs
        </Link>
        <Link className="ml-auto text-blue-700 underline dark:text-blue-400" href="/">
          Dashboard
        </Link>
      </header>
      {/* Scalar renders its own <main> landmark around the reference. */}
      <ApiReference />
    </div>
  );
}
