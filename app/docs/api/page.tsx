// The API reference, rendered from the same OpenAPI document the API serves.
import type { Metadata } from "next";
import { card, link, muted, table, td, th } from "@/components/ui/classes";
import { buildOpenApiDocument, errorCodesByStatus, type OpenApiOperation } from "@/lib/api/openapi";
import { routes } from "@/lib/api/route-table";
import { schemaRows } from "./schema-rows";

export const metadata: Metadata = { title: "API reference · Switchboard" };

const METHOD_STYLE: Record<string, string> = {
  get: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-200",
  post: "bg-indigo-100 text-indigo-900 dark:bg-indigo-950 dark:text-indigo-200",
};

type Entry = { path: string; method: string; op: OpenApiOperation };

const anchor = (e: Entry) => e.op.operationId;

function Operation({ entry }: { entry: Entry }) {
  const { op, method, path } = entry;
  const params = op.parameters.filter((p) => p.name !== "version");
  const versions = op["x-versions"];
  const body = op.requestBody?.content["application/json"].schema;
  const bodyRows = body ? schemaRows(body) : [];
  return (
    <section id={anchor(entry)} className={`${card} scroll-mt-4 space-y-4`}>
      <div className="flex flex-wrap items-center gap-2">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-bold uppercase ${METHOD_STYLE[method] ?? ""}`}>
          {method}
        </span>
        <code className="break-all font-mono text-sm">{path.replace("{version}", versions.join("|"))}</code>
      </div>
      <div>
        <h3 className="text-lg font-semibold">{op.summary}</h3>
        {op.description && <p className={muted}>{op.description}</p>}
        <p className={`${muted} mt-1`}>
          {op.security.length === 0 ? "No token needed." : "Authorization: Bearer <token>."}
          {op["x-feature"] ? ` Plan feature: ${op["x-feature"]}.` : ""}
        </p>
      </div>
      {params.length > 0 && (
        <FieldTable
          caption="Parameters"
          rows={params.map((p) => ({
            name: p.name,
            where: p.in,
            type: schemaType(p.schema),
            required: p.required,
            description: p.description ?? "",
          }))}
        />
      )}
      {body && (
        <FieldTable caption="JSON body" rows={bodyRows.map((r) => ({ ...r, where: "body" }))} empty="Any JSON object" />
      )}
      <div>
        <h4 className="text-sm font-semibold">Responses</h4>
        <ul className="mt-1 space-y-1 text-sm">
          {Object.entries(op.responses).map(([status, response]) => (
            <li key={status} className="flex gap-2">
              <span className="w-10 shrink-0 font-mono font-semibold">{status}</span>
              <span className="text-slate-700 dark:text-slate-300">{String(response.description ?? "")}</span>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

function schemaType(schema: Record<string, unknown>): string {
  return schemaRows({ properties: { x: schema } })[0]?.type ?? "";
}

type Row = { name: string; where: string; type: string; required: boolean; description: string };

function FieldTable({ caption, rows, empty }: { caption: string; rows: Row[]; empty?: string }) {
  return (
    <div className="overflow-x-auto">
      <table className={table}>
        <caption className="pb-1 text-left text-sm font-semibold">{caption}</caption>
        <thead>
          <tr>
            <th className={th}>Name</th>
            <th className={th}>In</th>
            <th className={th}>Type</th>
            <th className={th}>Required</th>
            <th className={th}>Description</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.length === 0 && (
            <tr>
              <td className={td} colSpan={5}>
                {empty ?? "None"}
              </td>
            </tr>
          )}
          {rows.map((r) => (
            <tr key={`${r.where}:${r.name}`}>
              <td className={`${td} whitespace-nowrap font-mono`}>{r.name}</td>
              <td className={td}>{r.where}</td>
              <td className={`${td} font-mono text-xs`}>{r.type}</td>
              <td className={td}>{r.required ? "Yes" : "No"}</td>
              <td className={td}>{r.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function ApiReferencePage() {
  const doc = buildOpenApiDocument(routes);
  const entries: Entry[] = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
  const tags = doc.tags.map((t) => t.name);
  const errorRows = [...errorCodesByStatus().entries()].sort(([a], [b]) => a - b);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <header className="space-y-2 border-b border-slate-200 pb-6 dark:border-slate-800">
        <h1 className="text-3xl font-bold tracking-tight">Switchboard API reference</h1>
        <p className="max-w-3xl text-slate-700 dark:text-slate-300">{doc.info.description}</p>
        <p className="text-sm">
          Machine-readable:{" "}
          <a className={link} href="/api/v3/openapi.json">
            /api/v3/openapi.json
          </a>{" "}
          (OpenAPI {doc.openapi}, also at{" "}
          <a className={link} href="/api/v2/openapi.json">
            /api/v2/openapi.json
          </a>
          ).
        </p>
      </header>
      <div className="mt-6 flex flex-col gap-8 lg:flex-row">
        <nav
          aria-label="Endpoints"
          className="lg:sticky lg:top-4 lg:max-h-[90vh] lg:w-64 lg:shrink-0 lg:overflow-y-auto"
        >
          <ul className="space-y-4 text-sm">
            {tags.map((tag) => (
              <li key={tag}>
                <a className="font-semibold hover:underline" href={`#tag-${tag}`}>
                  {tag}
                </a>
                <ul className="mt-1 space-y-0.5">
                  {entries
                    .filter((e) => e.op.tags.includes(tag))
                    .map((e) => (
                      <li key={anchor(e)}>
                        <a
                          className="block truncate text-slate-700 hover:underline dark:text-slate-300"
                          href={`#${anchor(e)}`}
                        >
                          <span className="mr-1 font-mono text-xs uppercase">{e.method}</span>
                          {e.op.summary}
                        </a>
                      </li>
                    ))}
                </ul>
              </li>
            ))}
            <li>
              <a className="font-semibold hover:underline" href="#errors">
                Errors
              </a>
            </li>
          </ul>
        </nav>
        <main className="min-w-0 flex-1 space-y-10">
          {tags.map((tag) => (
            <section key={tag} id={`tag-${tag}`} className="space-y-4">
              <h2 className="text-2xl font-semibold">{tag}</h2>
              {entries
                .filter((e) => e.op.tags.includes(tag))
                .map((e) => (
                  <Operation key={anchor(e)} entry={e} />
                ))}
            </section>
          ))}
          <section id="errors" className="space-y-4">
            <h2 className="text-2xl font-semibold">Errors</h2>
            <p className={muted}>
              Every failure answers{" "}
              <code className="font-mono">{"{ success: false, message, error_code, details, metadata }"}</code>; branch
              on <code className="font-mono">error_code</code>, never on the message. The X-Service-Request-Id header
              mirrors <code className="font-mono">metadata.requestId</code>. Retry only 429 and 5xx, with backoff.
            </p>
            <div className={`${card} overflow-x-auto p-0`}>
              <table className={table}>
                <thead>
                  <tr>
                    <th className={th}>HTTP</th>
                    <th className={th}>error_code</th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
                  {errorRows.map(([status, codes]) => (
                    <tr key={status}>
                      <td className={`${td} font-mono`}>{status}</td>
                      <td className={`${td} font-mono`}>{codes.join(", ")}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </section>
        </main>
      </div>
    </div>
  );
}
