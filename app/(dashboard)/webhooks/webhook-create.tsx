"use client";
import { useState } from "react";
import { useActionForm } from "@/components/dashboard/use-action-form";
import { button, link } from "@/components/ui/classes";
import { FormAlert } from "@/components/ui/form-alert";
import { IntentLink } from "@/components/ui/intent-link";
import { SecretOnce } from "@/components/ui/secret-once";
import type { CatalogGroup } from "@/lib/domains/webhooks/catalog";
import { createWebhookAction } from "./actions";
import { newWebhookValues, WebhookFields, webhookBody } from "./webhook-fields";

export function WebhookCreate({ senderPhone, groups }: { senderPhone: string; groups: CatalogGroup[] }) {
  const [values] = useState(newWebhookValues);
  const [events, setEvents] = useState<string[]>(values.events);
  const [created, setCreated] = useState<{ uid: string; signingSecret: string } | null>(null);
  const { onSubmit, pending, fields, message } = useActionForm({
    action: (data) => createWebhookAction({ senderId: senderPhone, webhook: webhookBody(data, events, "create") }),
    success: "Webhook created",
    onSuccess: ({ data, form, router }) => {
      setCreated(data);
      setEvents([]);
      form.reset();
      router.refresh();
    },
  });

  return (
    <div className="space-y-4">
      {created && (
        <div className="space-y-2">
          <SecretOnce
            title="Signing secret for your new webhook"
            value={created.signingSecret}
            testId="signing-secret"
          />
          <IntentLink className={link} href={`/webhooks/${created.uid}?sender=${encodeURIComponent(senderPhone)}`}>
            Open the new webhook
          </IntentLink>
        </div>
      )}
      <form onSubmit={onSubmit} className="space-y-4" noValidate>
        <WebhookFields
          idPrefix="wh"
          values={values}
          events={events}
          onEventsChange={setEvents}
          groups={groups}
          fields={fields}
          tokenLabel="Verification token (optional)"
        />
        <FormAlert message={message} />
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Creating…" : "Create webhook"}
        </button>
      </form>
    </div>
  );
}
