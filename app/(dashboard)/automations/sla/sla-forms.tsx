"use client";
// SLA policies (docs/reports.md "SLA policies"): the list in the account's order with a
// delete each, and the new-policy form checked with the API's schema before it is sent.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { useBodyForm } from "@/components/dashboard/use-action-form";
import { button, input, label, muted } from "@/components/ui/classes";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormAlert } from "@/components/ui/form-alert";
import { SlaPolicyCreateBody, type SlaPolicyPublic } from "@/lib/domains/sla/schemas";
import { createSlaPolicyAction, deleteSlaPolicyAction } from "../actions";

const minutes = (v: number | null) => (v === null ? "—" : `${v} min`);

export function PolicyList({ policies }: { policies: SlaPolicyPublic[] }) {
  const toast = useToast();
  const router = useRouter();
  if (policies.length === 0) return <p className={muted}>No SLA policies yet.</p>;
  async function remove(uid: string) {
    const result = await deleteSlaPolicyAction({ uid });
    if (!result.ok) {
      toast.error(result.message);
      return;
    }
    toast.success("SLA policy deleted");
    router.refresh();
  }
  return (
    <ol className="divide-y divide-slate-200 dark:divide-slate-700" aria-label="SLA policies, first that applies wins">
      {policies.map((x) => (
        <li key={x.slaUid} className="flex flex-wrap items-center gap-3 py-3" data-testid="sla-policy">
          <div className="min-w-0 flex-1">
            <p className="font-medium">{x.name}</p>
            <p className={muted}>
              First response {minutes(x.firstResponseMinutes)} · next {minutes(x.nextResponseMinutes)} · resolution{" "}
              {minutes(x.resolutionMinutes)}
              {x.businessHoursOnly ? " · business hours" : ""}
              {x.applies.labels.length > 0 ? ` · labels: ${x.applies.labels.join(", ")}` : ""}
              {x.applies.senderIds.length > 0 ? ` · senders: ${x.applies.senderIds.join(", ")}` : ""}
            </p>
          </div>
          <ConfirmButton
            label={`Delete ${x.name}`}
            title={`Delete the SLA policy ${x.name}?`}
            confirmLabel="Delete"
            onConfirm={() => remove(x.slaUid)}
          >
            Its conversations lose their due times; the breaches recorded stay.
          </ConfirmButton>
        </li>
      ))}
    </ol>
  );
}

const numberOrNull = (v: string) => (v.trim() === "" ? null : Number(v));

/** The form's labels by the schema's paths: its messages name what the user sees, not the API's fields. */
const FIELD_LABELS: Record<string, string> = {
  "policy.name": "Name",
  "policy.firstResponseMinutes": "First response (minutes)",
  "policy.nextResponseMinutes": "Next response (minutes)",
  "policy.resolutionMinutes": "Resolution (minutes)",
  "policy.applies.labels": "Labels",
};

export function PolicyForm() {
  const [name, setName] = useState("");
  const [first, setFirst] = useState("15");
  const [next, setNext] = useState("");
  const [resolution, setResolution] = useState("");
  const [businessHoursOnly, setBusinessHoursOnly] = useState(false);
  const [labels, setLabels] = useState("");
  const { submit, pending, message, refuse } = useBodyForm({
    schema: SlaPolicyCreateBody,
    action: createSlaPolicyAction,
    success: "SLA policy created",
    fields: FIELD_LABELS,
  });

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if ([first, next, resolution].every((v) => v.trim() === "")) {
      refuse("Set at least one target: first response, next response or resolution.");
      return;
    }
    const body = {
      policy: {
        name,
        firstResponseMinutes: numberOrNull(first),
        nextResponseMinutes: numberOrNull(next),
        resolutionMinutes: numberOrNull(resolution),
        businessHoursOnly,
        applies: {
          labels: labels
            .split(",")
            .map((l) => l.trim())
            .filter(Boolean),
        },
      },
    };
    if (await submit(body)) setName("");
  }

  const field = (id: string, text: string, value: string, set: (v: string) => void, hint?: string) => (
    <div>
      <label htmlFor={id} className={label}>
        {text}
      </label>
      <input
        id={id}
        className={input}
        inputMode="numeric"
        value={value}
        onChange={(e) => set(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      {hint ? (
        <p id={`${id}-hint`} className={muted}>
          {hint}
        </p>
      ) : null}
    </div>
  );

  return (
    <form onSubmit={save} className="mt-3 space-y-3" noValidate>
      <FormAlert message={message} />
      <div>
        <label htmlFor="sla-name" className={label}>
          Name
        </label>
        <input id="sla-name" className={input} value={name} onChange={(e) => setName(e.target.value)} required />
      </div>
      <div className="grid gap-3 sm:grid-cols-3">
        {field("sla-first", "First response (minutes)", first, setFirst)}
        {field("sla-next", "Next response (minutes)", next, setNext)}
        {field("sla-resolution", "Resolution (minutes)", resolution, setResolution)}
      </div>
      <p className={muted}>Leave a target empty for none; a policy needs at least one.</p>
      <div>
        <label htmlFor="sla-labels" className={label}>
          Labels (comma-separated; empty: every conversation)
        </label>
        <input id="sla-labels" className={input} value={labels} onChange={(e) => setLabels(e.target.value)} />
      </div>
      <div className="flex items-center gap-2">
        <input
          id="sla-business-hours"
          type="checkbox"
          checked={businessHoursOnly}
          onChange={(e) => setBusinessHoursOnly(e.target.checked)}
        />
        <label htmlFor="sla-business-hours" className="text-sm">
          Count business hours only
        </label>
      </div>
      <button type="submit" className={button} disabled={pending}>
        {pending ? "Creating…" : "Create policy"}
      </button>
    </form>
  );
}
