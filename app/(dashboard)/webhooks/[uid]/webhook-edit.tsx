"use client";
import { useState } from "react";
import { useActionForm } from "@/components/dashboard/use-action-form";
import { button, input, label } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { FormAlert } from "@/components/ui/form-alert";
import type { CatalogGroup } from "@/lib/domains/webhooks/catalog";
import type { WebhookPublic } from "@/lib/domains/webhooks/schemas";
import { updateWebhookAction } from "../actions";
import { WebhookFields, webhookBody, webhookValues } from "../webhook-fields";

export function WebhookEdit({
  senderPhone,
  webhook,
  groups,
}: {
  senderPhone: string;
  webhook: WebhookPublic;
  groups: CatalogGroup[];
}) {
  const [events, setEvents] = useState<string[]>(webhook.events);
  const { onSubmit, pending, fields, message } = useActionForm({
    action: (data) =>
      updateWebhookAction({ senderId: senderPhone, uid: webhook.uid, webhook: webhookBody(data, events, "edit") }),
    success: "Webhook saved",
  });

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <WebhookFields
        idPrefix="ed"
        values={webhookValues(webhook)}
        events={events}
        onEventsChange={setEvents}
        groups={groups}
        fields={fields}
        tokenLabel={`New verification token ${webhook.hasVerificationToken ? "(one is stored)" : "(none stored)"}`}
        options={
          <label className="flex items-center gap-2">
            <input type="checkbox" name="clearVerificationToken" disabled={!webhook.hasVerificationToken} /> Clear the
            stored verification token
          </label>
        }
      >
        <div>
          <label htmlFor="ed-status" className={label}>
            Status
          </label>
          <select
            id="ed-status"
            name="status"
            defaultValue={webhook.status}
            className={input}
            {...errorProps("ed-status", fields.status)}
          >
            <option value="ACTIVE">Active</option>
            <option value="INACTIVE">Inactive</option>
          </select>
          <FieldMessage inputId="ed-status" message={fields.status} />
        </div>
      </WebhookFields>
      <FormAlert message={message} />
      <button type="submit" className={button} disabled={pending}>
        {pending ? "Saving…" : "Save changes"}
      </button>
    </form>
  );
}
