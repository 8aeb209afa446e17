"use client";
// The new-broadcast form, one page in steps (docs/broadcasts.md "How to send one"). Every change
// is checked with the API's own schema (BroadcastCreateInput) and, once it can be counted, counted
// live by the server with the statements a start runs. "Save draft" creates the DRAFT; "Start" or
// "Schedule" creates it (or updates the draft a refused start left) and starts it; then the
// broadcast's page.
import { useRouter } from "next/navigation";
import { type ReactNode, useEffect, useMemo, useState } from "react";
import { TemplatePreview } from "@/components/dashboard/template-fill";
import { useToast } from "@/components/dashboard/toast";
import { button, buttonSecondary, card, input, label, muted } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { FormAlert } from "@/components/ui/form-alert";
import type { ActionResult } from "@/lib/dashboard/action-result";
import { BroadcastCreateInput } from "@/lib/domains/broadcasts/schemas";
import { createBroadcastAction, startBroadcastAction, updateBroadcastAction } from "./actions";
import {
  AudienceCount,
  AudienceFields,
  type BookChoice,
  type FieldChoice,
  type SegmentChoice,
  SegmentField,
} from "./audience-fields";
import { errorsOf, type FormDraft, fileErrors, inputOf, mappedSlots } from "./draft";
import { withFieldLabels } from "./field-labels";
import { ReviewPanel } from "./review-panel";
import { ScheduleFields } from "./schedule-fields";
import { useDraftEstimate } from "./use-draft-estimate";
import { SamplePreviews, VariableFields } from "./variable-fields";

type SenderChoice = { phoneNumber: string; displayName: string | null; isDefault: boolean };
type TemplateChoice = { name: string; language: string; category: string; components: unknown };

type Props = {
  senders: SenderChoice[];
  initialSender: string;
  templates: TemplateChoice[];
  books: BookChoice[];
  fields: FieldChoice[];
  segments: SegmentChoice[];
  /** A segment chosen on the segments page (?segment=); "" for none. */
  initialSegment: string;
};

const keyOf = (t: Pick<TemplateChoice, "name" | "language">) => `${t.name}|${t.language}`;

function Step({ n, id, title, children }: { n: number; id: string; title: string; children: ReactNode }) {
  return (
    <section className={`${card} space-y-3`} aria-labelledby={id}>
      <h2 id={id} className="text-lg font-semibold">
        <span className="text-slate-600 dark:text-slate-400">{n}.</span> {title}
      </h2>
      {children}
    </section>
  );
}

export function BroadcastForm({ senders, initialSender, templates, books, fields, segments, initialSegment }: Props) {
  const router = useRouter();
  const toast = useToast();
  const first = templates[0];
  const [draft, setDraft] = useState<FormDraft>({
    name: "",
    senderId: initialSender,
    template: first ? { name: first.name, language: first.language } : null,
    bookUids: [],
    filters: [],
    segmentUid: initialSegment,
    mappings: {},
    schedule: { when: "now", date: "", time: "09:00", zone: "UTC" },
    pace: "",
  });
  // The browser's own zone once hydrated (the server does not know it).
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) setDraft((d) => ({ ...d, schedule: { ...d.schedule, zone } }));
  }, []);
  /** Field errors show once a submit asked for them, then follow the form as it is fixed. */
  const [asked, setAsked] = useState(false);
  /** The server's refusal of the last save or start. */
  const [refusal, setRefusal] = useState<string | null>(null);
  const [pending, setPending] = useState<"draft" | "start" | null>(null);
  /** The draft a refused start left: the next try (same sender) updates and starts it rather than making another. */
  const [left, setLeft] = useState<{ uid: string; senderId: string } | null>(null);

  const template = templates.find((t) => draft.template && keyOf(t) === keyOf(draft.template)) ?? null;
  const slots = useMemo(() => (template ? mappedSlots(template.components) : []), [template]);
  const raw = inputOf(draft, slots);
  const parsed = BroadcastCreateInput.safeParse(raw);
  const later = draft.schedule.when === "later";
  const past = later && raw.scheduledAt ? new Date(raw.scheduledAt).getTime() <= Date.now() : false;
  const liveErrors: Record<string, string> = {
    ...(parsed.success ? {} : errorsOf(parsed.error.issues, slots)),
    ...fileErrors(draft, slots),
    ...(past ? { scheduledAt: "Start time must be in the future" } : {}),
  };
  const errors = asked ? liveErrors : {};
  const message = Object.keys(errors).length > 0 ? "Check the highlighted fields" : refusal;
  const counted = inputOf(draft, slots, true);
  const estimate = useDraftEstimate({
    senderId: draft.senderId,
    broadcast: {
      template: counted.template,
      audience: counted.audience,
      variables: counted.variables,
      maxPerSecond: counted.maxPerSecond,
    },
  });
  const set = (p: Partial<FormDraft>) => setDraft((d) => ({ ...d, ...p }));

  function check(): boolean {
    setAsked(true);
    const problems = Object.values(liveErrors);
    if (problems.length === 0) return true;
    toast.error(problems[0] ?? "Check the form");
    return false;
  }

  function refused(result: Extract<ActionResult<unknown>, { ok: false }>) {
    setRefusal(withFieldLabels(result.message));
    toast.error(result.message);
  }

  async function submit(start: boolean) {
    setRefusal(null);
    if (!check() || !parsed.success) return;
    setPending(start ? "start" : "draft");
    try {
      const broadcast = parsed.data;
      const saved =
        left && left.senderId === draft.senderId
          ? await updateBroadcastAction({ uid: left.uid, broadcast })
          : await createBroadcastAction({ senderId: draft.senderId, broadcast });
      if (!saved.ok) return refused(saved);
      const uid = saved.data.uid;
      if (start) {
        const started = await startBroadcastAction({ uid, scheduledAt: broadcast.scheduledAt ?? null });
        if (!started.ok) {
          setLeft({ uid, senderId: draft.senderId });
          return refused({ ...started, message: `${started.message} (It is saved as a draft.)` });
        }
        toast.success(started.data.status === "SCHEDULED" ? "Broadcast scheduled" : "Broadcast started");
      } else {
        toast.success("Draft saved");
      }
      router.push(`/broadcasts/${uid}`);
    } finally {
      setPending(null);
    }
  }

  if (templates.length === 0) {
    return (
      <p className={muted}>
        No approved template yet: a broadcast sends one. Create one on Templates; it can be used once approved.
      </p>
    );
  }

  const nameError = errors.name;
  const templateError = errors["template.name"];
  return (
    <form
      className="space-y-6"
      noValidate
      aria-label="New broadcast"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(true);
      }}
    >
      <Step n={1} id="bc-step-message" title="Sender and template">
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <label htmlFor="bc-name" className={label}>
              Name
            </label>
            <input
              id="bc-name"
              className={input}
              value={draft.name}
              onChange={(e) => set({ name: e.target.value })}
              placeholder="Spring sale"
              {...errorProps("bc-name", nameError)}
            />
            <FieldMessage inputId="bc-name" message={nameError} />
          </div>
          <div>
            <label htmlFor="bc-sender" className={label}>
              Send from
            </label>
            <select
              id="bc-sender"
              className={input}
              value={draft.senderId}
              onChange={(e) => set({ senderId: e.target.value })}
            >
              {senders.map((s) => (
                <option key={s.phoneNumber} value={s.phoneNumber}>
                  {s.phoneNumber}
                  {s.displayName ? ` (${s.displayName})` : ""}
                  {s.isDefault ? " · default" : ""}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div>
          <label htmlFor="bc-template" className={label}>
            Template (approved)
          </label>
          <select
            id="bc-template"
            className={input}
            value={draft.template ? keyOf(draft.template) : ""}
            onChange={(e) => {
              const t = templates.find((x) => keyOf(x) === e.target.value);
              set({ template: t ? { name: t.name, language: t.language } : null, mappings: {} });
            }}
            {...errorProps("bc-template", templateError)}
          >
            {templates.map((t) => (
              <option key={keyOf(t)} value={keyOf(t)}>
                {t.name} ({t.language}, {t.category.toLowerCase()})
              </option>
            ))}
          </select>
          <FieldMessage inputId="bc-template" message={templateError} />
        </div>
        {template ? <TemplatePreview components={template.components} values={{}} /> : null}
      </Step>

      <Step n={2} id="bc-step-audience" title="Audience">
        <SegmentField
          segments={segments}
          segmentUid={draft.segmentUid ?? ""}
          onSegment={(segmentUid) => set({ segmentUid })}
          errors={errors}
        />
        {draft.segmentUid ? null : (
          <AudienceFields
            books={books}
            fields={fields}
            bookUids={draft.bookUids}
            filters={draft.filters}
            onBooks={(bookUids) => set({ bookUids })}
            onFilters={(filters) => set({ filters })}
            errors={errors}
          />
        )}
        <AudienceCount
          estimate={estimate.data}
          updating={estimate.updating}
          segment={segments.find((s) => s.uid === draft.segmentUid)?.name}
        />
      </Step>

      <Step n={3} id="bc-step-variables" title="Variables">
        <VariableFields
          slots={slots}
          fields={fields}
          mappings={draft.mappings}
          onChange={(key, m) => set({ mappings: { ...draft.mappings, [key]: m } })}
          errors={errors}
          senderId={draft.senderId}
        />
        {template ? <SamplePreviews components={template.components} estimate={estimate.data} /> : null}
      </Step>

      <Step n={4} id="bc-step-schedule" title="Schedule and pace">
        <ScheduleFields
          schedule={draft.schedule}
          onSchedule={(schedule) => set({ schedule })}
          pace={draft.pace}
          onPace={(pace) => set({ pace })}
          errors={errors}
        />
      </Step>

      <Step n={5} id="bc-step-review" title="Review">
        <ReviewPanel
          estimate={estimate.data}
          error={estimate.error}
          updating={estimate.updating}
          schedule={draft.schedule}
          scheduledAt={raw.scheduledAt}
        />
        <FormAlert message={message} />
        <div className="flex flex-wrap gap-3">
          <button type="submit" className={button} disabled={pending !== null || estimate.data?.insufficient === true}>
            {pending === "start" ? "Starting…" : later ? "Schedule broadcast" : "Start broadcast"}
          </button>
          <button
            type="button"
            className={buttonSecondary}
            disabled={pending !== null}
            onClick={() => void submit(false)}
          >
            {pending === "draft" ? "Saving…" : "Save draft"}
          </button>
        </div>
      </Step>
    </form>
  );
}
