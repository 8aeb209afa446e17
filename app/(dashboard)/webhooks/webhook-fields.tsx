"use client";
import type { ReactNode } from "react";
import { input, label } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
// The one field set of the webhook create and edit forms. A new webhook starts from the
// create schema's defaults (lib/domains/webhooks/schemas.ts); each field shows its own error, the
// service's included (e.g. an endpoint URL the URL guard refuses).
import { formatCount } from "@/lib/core/count";
import type { FormValues } from "@/lib/dashboard/define-action";
import type { CatalogGroup } from "@/lib/domains/webhooks/catalog";
import {
  RETRY_MAX_ATTEMPTS,
  TIMEOUT_MS,
  type WebhookPublic,
  webhookCreateDefaults,
} from "@/lib/domains/webhooks/schemas";
import { EventPicker } from "./event-picker";

export type WebhookFormValues = {
  name: string;
  endpointUrl: string;
  events: string[];
  timeoutMs: number;
  retryEnabled: boolean;
  retryMaxAttempts: number;
  verificationHeaderKey: string;
  /** "" means no cap. */
  maxDeliveriesPerSecond: string;
};

export function newWebhookValues(): WebhookFormValues {
  const { timeoutMs, retryEnabled, retryMaxAttempts } = webhookCreateDefaults();
  return {
    name: "",
    endpointUrl: "",
    events: [],
    timeoutMs,
    retryEnabled,
    retryMaxAttempts,
    verificationHeaderKey: "",
    maxDeliveriesPerSecond: "",
  };
}

export function webhookValues(w: WebhookPublic): WebhookFormValues {
  return {
    name: w.name,
    endpointUrl: w.endpointUrl,
    events: w.events,
    timeoutMs: w.timeoutMs,
    retryEnabled: w.retryEnabled,
    retryMaxAttempts: w.retryMaxAttempts,
    verificationHeaderKey: w.verificationHeaderKey ?? "",
    maxDeliveriesPerSecond: w.maxDeliveriesPerSecond === null ? "" : String(w.maxDeliveriesPerSecond),
  };
}

/**
 * The action's input read from the form. Create leaves blank optional fields out; edit also
 * sends the status, a blank header as null (removes it) and the clear-token box.
 */
export function webhookBody(data: FormData, events: string[], mode: "create" | "edit"): FormValues {
  const str = (k: string) => String(data.get(k) ?? "").trim();
  const defaults = webhookCreateDefaults();
  const num = (k: "timeoutMs" | "retryMaxAttempts") => (str(k) === "" ? defaults[k] : Number(str(k)));
  const body: FormValues = {
    name: str("name"),
    endpointUrl: str("endpointUrl"),
    events,
    timeoutMs: num("timeoutMs"),
    retryEnabled: data.get("retryEnabled") === "on",
    retryMaxAttempts: num("retryMaxAttempts"),
  };
  const cap = str("maxDeliveriesPerSecond");
  if (cap !== "") body.maxDeliveriesPerSecond = Number(cap);
  if (mode === "edit") {
    if (cap === "") body.maxDeliveriesPerSecond = null;
    body.status = str("status");
    body.verificationHeaderKey = str("verificationHeaderKey") || null;
    if (data.get("clearVerificationToken") === "on") body.clearVerificationToken = true;
  } else if (str("verificationHeaderKey")) body.verificationHeaderKey = str("verificationHeaderKey");
  if (str("verificationToken")) body.verificationToken = str("verificationToken");
  return body;
}

type Props = {
  /** Prefix of the input ids ("wh" on create, "ed" on edit). */
  idPrefix: string;
  values: WebhookFormValues;
  events: string[];
  onEventsChange: (next: string[]) => void;
  groups: CatalogGroup[];
  /** Field errors by field name (useActionForm). */
  fields: Record<string, string>;
  tokenLabel: string;
  /** More fields in the grid (edit: the status). */
  children?: ReactNode;
  /** More checkboxes beside "Retry failed deliveries" (edit: clear the token). */
  options?: ReactNode;
};

export function WebhookFields({
  idPrefix,
  values,
  events,
  onEventsChange,
  groups,
  fields,
  tokenLabel,
  ...more
}: Props) {
  const text = (name: string, caption: string, attrs: React.ComponentProps<"input"> = {}) => {
    const id = `${idPrefix}-${name}`;
    const value = values[name as keyof WebhookFormValues];
    return (
      <div>
        <label htmlFor={id} className={label}>
          {caption}
        </label>
        <input
          id={id}
          name={name}
          defaultValue={value === undefined ? undefined : String(value)}
          className={input}
          {...attrs}
          {...errorProps(id, fields[name])}
        />
        <FieldMessage inputId={id} message={fields[name]} />
      </div>
    );
  };
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        {text("name", "Name", { required: true })}
        {text("endpointUrl", "Endpoint URL (HTTPS)", { type: "url", required: true, placeholder: "https://" })}
        {more.children}
        {text("timeoutMs", `Timeout (ms, ${TIMEOUT_MS.min}–${TIMEOUT_MS.max})`, {
          type: "number",
          min: TIMEOUT_MS.min,
          max: TIMEOUT_MS.max,
        })}
        {text("retryMaxAttempts", `Maximum retry attempts (${RETRY_MAX_ATTEMPTS.min}–${RETRY_MAX_ATTEMPTS.max})`, {
          type: "number",
          min: RETRY_MAX_ATTEMPTS.min,
          max: RETRY_MAX_ATTEMPTS.max,
        })}
        {text("maxDeliveriesPerSecond", "Max deliveries per second (optional, 1–1000)", {
          type: "number",
          min: 1,
          max: 1000,
        })}
        {text("verificationHeaderKey", "Verification header (optional)", { placeholder: "X-Webhook-Token" })}
        {text("verificationToken", tokenLabel, { type: "password", autoComplete: "off" })}
      </div>
      <div className="flex flex-wrap gap-6 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" name="retryEnabled" defaultChecked={values.retryEnabled} /> Retry failed deliveries
        </label>
        {more.options}
      </div>
      <div>
        <p className={label}>Events ({formatCount(events.length)} selected)</p>
        <EventPicker groups={groups} selected={events} onChange={onEventsChange} />
        <FieldMessage inputId={`${idPrefix}-events`} message={fields.events} />
      </div>
    </>
  );
}
