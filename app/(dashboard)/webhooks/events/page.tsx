// The event catalog (GET /webhooks/events): every event key with the JSON Schema and an
// example of the body its deliveries carry (lib/domains/webhooks/payloads.ts).
import type { Metadata } from "next";
import { SubpageHeader } from "@/components/dashboard/page-header";
import { card } from "@/components/ui/classes";
import { requirePermission } from "@/lib/dashboard/guard";
import { eventCatalog } from "@/lib/domains/webhooks/catalog";

export const metadata: Metadata = { title: "Webhook events · Switchboard" };

export default async function WebhookEventsPage() {
  await requirePermission("webhooks");
  const { groups } = eventCatalog();
  return (
    <div className="space-y-6">
      <SubpageHeader backHref="/webhooks" backLabel="All webhooks" title="Webhook events">
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Every event a destination can receive, with an example body and its JSON Schema: the ones it subscribes to,
          and webhook.test, sent when you send it a test event.
        </p>
      </SubpageHeader>
      {groups.map((g) => (
        <section key={g.key} className={card} aria-labelledby={`group-${g.key}`}>
          <h2 id={`group-${g.key}`} className="text-lg font-semibold">
            {g.name}
          </h2>
          <p className="mb-3 text-sm text-slate-600 dark:text-slate-400">{g.description}</p>
          <ul className="space-y-3">
            {g.events.map((e) => (
              <li key={e.key} data-testid="catalog-event">
                <p>
                  <span className="font-mono text-sm">{e.key}</span>: {e.description}
                </p>
                <details className="mt-1">
                  <summary className="cursor-pointer text-sm">Example body</summary>
                  <pre className="whitespace-pre-wrap break-all rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">
                    {JSON.stringify(e.example, null, 2)}
                  </pre>
                </details>
                <details className="mt-1">
                  <summary className="cursor-pointer text-sm">JSON Schema</summary>
                  <pre className="whitespace-pre-wrap break-all rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">
                    {JSON.stringify(e.schema, null, 2)}
                  </pre>
                </details>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
