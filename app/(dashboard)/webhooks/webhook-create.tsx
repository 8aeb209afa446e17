"use client";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, input, label, link } from "@/components/ui/classes";
import { SecretOnce } from "@/components/ui/secret-once";
import type { CatalogGroup } from "@/lib/webhooks/catalog";
import { createWebhookAction } from "./actions";
import { EventPicker } from "./event-picker";

export function WebhookCreate({ senderPhone, groups }: { senderPhone: string; groups: CatalogGroup[] }) {
  const toast = useToast();
  const router = useRouter();
  const [events, setEvents] = useState<string[]>([]);
  const [created, setCreated] = useState<{ uid: string; signingSecret: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const str = (k: string) => String(f.get(k) ?? "").trim();
    const body: Record<string, unknown> = {
      name: str("name"),
      endpointUrl: str("endpointUrl"),
      events,
      timeoutMs: Number(str("timeoutMs") || 10000),
      retryEnabled: f.get("retryEnabled") === "on",
      retryMaxAttempts: Number(str("retryMaxAttempts") || 5),
    };
    if (str("verificationHeaderKey")) body.verificationHeaderKey = str("verificationHeaderKey");
    if (str("verificationToken")) body.verificationToken = str("verificationToken");
    setPending(true);
    const result = await createWebhookAction(senderPhone, body);
    setPending(false);
    if (!result.ok) {
      setError(result.message);
      toast.error(result.message);
      return;
    }
    setError(null);
    setCreated(result.data);
    setEvents([]);
    form.reset();
    toast.success("Webhook created");
    router.refresh();
  }

  return (
    <div className="space-y-4">
      {created && (
        <div className="space-y-2">
          <SecretOnce
            title="Signing secret for your new webhook"
            value={created.signingSecret}
            testId="signing-secret"
          />
          <Link className={link} href={`/webhooks/${created.uid}?sender=${encodeURIComponent(senderPhone)}`}>
            Open the new webhook
          </Link>
        </div>
      )}
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <div>
            <label htmlFor="wh-name" className={label}>
              Name
            </label>
            <input id="wh-name" name="name" required className={input} />
          </div>
          <div>
            <label htmlFor="wh-url" className={label}>
              Endpoint URL (HTTPS)
            </label>
            <input id="wh-url" name="endpointUrl" type="url" required placeholder="https://" className={input} />
          </div>
          <div>
            <label htmlFor="wh-timeout" className={label}>
              Timeout (ms, 1000–30000)
            </label>
            <input
              id="wh-timeout"
              name="timeoutMs"
              type="number"
              min={1000}
              max={30000}
              defaultValue={10000}
              className={input}
            />
          </div>
          <div>
            <label htmlFor="wh-retries" className={label}>
              Maximum retry attempts (0–10)
            </label>
            <input
              id="wh-retries"
              name="retryMaxAttempts"
              type="number"
              min={0}
              max={10}
              defaultValue={5}
              className={input}
            />
          </div>
          <div>
            <label htmlFor="wh-header" className={label}>
              Verification header (optional)
            </label>
            <input id="wh-header" name="verificationHeaderKey" placeholder="X-Webhook-Token" className={input} />
          </div>
          <div>
            <label htmlFor="wh-token" className={label}>
              Verification token (optional)
            </label>
            <input id="wh-token" name="verificationToken" type="password" autoComplete="off" className={input} />
          </div>
        </div>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" name="retryEnabled" defaultChecked /> Retry failed deliveries
        </label>
        <div>
          <p className={label}>Events ({events.length} selected)</p>
          <EventPicker groups={groups} selected={events} onChange={setEvents} />
        </div>
        {error && (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200">
            {error}
          </p>
        )}
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Creating…" : "Create webhook"}
        </button>
      </form>
    </div>
  );
}
