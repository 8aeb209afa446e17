"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, input, label } from "@/components/ui/classes";
import type { CatalogGroup } from "@/lib/webhooks/catalog";
import type { WebhookPublic } from "@/lib/webhooks/schemas";
import { updateWebhookAction } from "../actions";
import { EventPicker } from "../event-picker";

export function WebhookEdit({
  senderPhone,
  webhook,
  groups,
}: {
  senderPhone: string;
  webhook: WebhookPublic;
  groups: CatalogGroup[];
}) {
  const toast = useToast();
  const router = useRouter();
  const [events, setEvents] = useState<string[]>(webhook.events);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const str = (k: string) => String(f.get(k) ?? "").trim();
    const patch: Record<string, unknown> = {
      name: str("name"),
      status: str("status"),
      events,
      timeoutMs: Number(str("timeoutMs")),
      retryEnabled: f.get("retryEnabled") === "on",
      retryMaxAttempts: Number(str("retryMaxAttempts")),
      verificationHeaderKey: str("verificationHeaderKey") || null,
    };
    if (str("verificationToken")) patch.verificationToken = str("verificationToken");
    if (f.get("clearVerificationToken") === "on") patch.clearVerificationToken = true;
    setPending(true);
    const result = await updateWebhookAction(senderPhone, webhook.uid, patch);
    setPending(false);
    if (!result.ok) {
      setError(result.message);
      toast.error(result.message);
      return;
    }
    setError(null);
    toast.success("Webhook saved");
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="ed-name" className={label}>
            Name
          </label>
          <input id="ed-name" name="name" defaultValue={webhook.name} className={input} />
        </div>
        <div>
          <label htmlFor="ed-status" className={label}>
            Status
          </label>
          <select id="ed-status" name="status" defaultValue={webhook.status} className={input}>
            <option value="ACTIVE">Active</option>
            <option value="INACTIVE">Inactive</option>
          </select>
        </div>
        <div>
          <label htmlFor="ed-timeout" className={label}>
            Timeout (ms, 1000–30000)
          </label>
          <input
            id="ed-timeout"
            name="timeoutMs"
            type="number"
            min={1000}
            max={30000}
            defaultValue={webhook.timeoutMs}
            className={input}
          />
        </div>
        <div>
          <label htmlFor="ed-retries" className={label}>
            Maximum retry attempts (0–10)
          </label>
          <input
            id="ed-retries"
            name="retryMaxAttempts"
            type="number"
            min={0}
            max={10}
            defaultValue={webhook.retryMaxAttempts}
            className={input}
          />
        </div>
        <div>
          <label htmlFor="ed-header" className={label}>
            Verification header
          </label>
          <input
            id="ed-header"
            name="verificationHeaderKey"
            defaultValue={webhook.verificationHeaderKey ?? ""}
            className={input}
          />
        </div>
        <div>
          <label htmlFor="ed-token" className={label}>
            New verification token {webhook.hasVerificationToken ? "(one is stored)" : "(none stored)"}
          </label>
          <input id="ed-token" name="verificationToken" type="password" autoComplete="off" className={input} />
        </div>
      </div>
      <div className="flex flex-wrap gap-6 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" name="retryEnabled" defaultChecked={webhook.retryEnabled} /> Retry failed deliveries
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="clearVerificationToken" disabled={!webhook.hasVerificationToken} /> Clear the
          stored verification token
        </label>
      </div>
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
        {pending ? "Saving…" : "Save changes"}
      </button>
    </form>
  );
}
