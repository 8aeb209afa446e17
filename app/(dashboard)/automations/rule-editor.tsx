"use client";
// The rule editor in plain words: "When [trigger], and [conditions], then [actions]", with the
// sentence the rule makes shown as it is written. The form is checked with the API's own zod
// schema (lib/domains/automation/schemas.ts) before it is sent, and again by the action.
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, buttonSecondary, input, label } from "@/components/ui/classes";
import { FormAlert } from "@/components/ui/form-alert";
import { describeRule } from "@/lib/domains/automation/describe";
import {
  ACTION_TYPES,
  FIELD_OPS,
  RuleCreateInput,
  type RulePublic,
  TRIGGER_EVENTS,
} from "@/lib/domains/automation/schemas";
import { createRuleAction, updateRuleAction } from "./actions";

type CondDraft = { key: number; field: string; fieldKey: string; op: string; value: string; inHours: boolean };
type ActionDraft = {
  key: number;
  type: (typeof ACTION_TYPES)[number];
  assignee: string;
  roundRobin: boolean;
  labels: string;
  text: string;
  template: string;
  language: string;
  minutes: number;
};

const TRIGGER_WORDS: Record<(typeof TRIGGER_EVENTS)[number], string> = {
  "message.inbound": "a message arrives",
  "conversation.created": "a new conversation starts",
  "conversation.idle": "a conversation is quiet for",
  "conversation.unanswered": "a contact waits for a reply for",
  "conversation.labels_changed": "a conversation's labels change",
};
const FIELD_WORDS: Record<string, string> = {
  "message.text": "its text",
  "message.type": "its type",
  "contact.field": "the contact's field",
  "contact.label": "the contact's labels",
  "conversation.label": "the conversation's labels",
  "conversation.assignee": "the assignee",
  "conversation.status": "the status",
  sender: "the sender",
  time: "the time",
};
const ACTION_WORDS: Record<(typeof ACTION_TYPES)[number], string> = {
  assign: "assign",
  label: "add labels",
  unlabel: "remove labels",
  note: "add an internal note",
  send_text: "reply with a text",
  send_template: "send a template",
  close: "close the conversation",
  snooze: "snooze",
  webhook: "notify the webhooks",
};

let seq = 0;
const nextKey = () => {
  seq += 1;
  return seq;
};
const emptyAction = (type: ActionDraft["type"] = "note"): ActionDraft => ({
  key: nextKey(),
  type,
  assignee: "",
  roundRobin: false,
  labels: "",
  text: "",
  template: "",
  language: "en",
  minutes: 60,
});

function condDraft(c: RulePublic["conditions"][number]): CondDraft {
  const isField = c.field.startsWith("contact.field.");
  const value = c.value as string | { inBusinessHours: boolean };
  return {
    key: nextKey(),
    field: isField ? "contact.field" : c.field,
    fieldKey: isField ? c.field.slice(14) : "",
    op: c.op,
    value: typeof value === "string" ? value : "",
    inHours: typeof value === "object" ? value.inBusinessHours : true,
  };
}

function actionDraft(a: RulePublic["actions"][number]): ActionDraft {
  const d = emptyAction(a.type);
  const v = a as Record<string, unknown>;
  const template = (v.template ?? v.fallbackTemplate) as { name: string; language: string } | undefined;
  return {
    ...d,
    assignee: typeof v.assignee === "string" ? v.assignee : "",
    roundRobin: v.roundRobin === true,
    labels: Array.isArray(v.labels) ? v.labels.join(", ") : "",
    text: typeof v.text === "string" ? v.text : "",
    template: template?.name ?? "",
    language: template?.language ?? "en",
    minutes: typeof v.minutes === "number" ? v.minutes : 60,
  };
}

function actionValue(a: ActionDraft): Record<string, unknown> {
  const labels = a.labels
    .split(",")
    .map((l) => l.trim())
    .filter(Boolean);
  const template = { name: a.template.trim(), language: a.language.trim() };
  switch (a.type) {
    case "assign":
      return a.roundRobin ? { type: "assign", roundRobin: true } : { type: "assign", assignee: a.assignee };
    case "label":
    case "unlabel":
      return { type: a.type, labels };
    case "note":
      return { type: "note", text: a.text };
    case "send_text":
      return { type: "send_text", text: a.text, ...(a.template.trim() ? { fallbackTemplate: template } : {}) };
    case "send_template":
      return { type: "send_template", template };
    case "snooze":
      return { type: "snooze", minutes: a.minutes };
    default:
      return { type: a.type };
  }
}

export function RuleEditor({ rule }: { rule?: RulePublic }) {
  const toast = useToast();
  const router = useRouter();
  const [name, setName] = useState(rule?.name ?? "");
  const [event, setEvent] = useState<(typeof TRIGGER_EVENTS)[number]>(rule?.trigger.event ?? "message.inbound");
  const [minutes, setMinutes] = useState(rule?.trigger.minutes ?? 30);
  const [conditions, setConditions] = useState<CondDraft[]>((rule?.conditions ?? []).map(condDraft));
  const [actions, setActions] = useState<ActionDraft[]>(rule ? rule.actions.map(actionDraft) : [emptyAction("label")]);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const timed = event === "conversation.idle" || event === "conversation.unanswered";

  const values = () => ({
    name,
    trigger: timed ? { event, minutes } : { event },
    conditions: conditions.map((c) => ({
      field: c.field === "contact.field" ? `contact.field.${c.fieldKey.trim()}` : c.field,
      op: c.op,
      value: c.field === "time" ? { inBusinessHours: c.inHours } : c.value,
    })),
    actions: actions.map(actionValue),
  });
  const parsed = RuleCreateInput.safeParse(values());
  const sentence = parsed.success ? describeRule(parsed.data) : null;
  const err = (k: string) =>
    errors[k] ? (
      <p className="mt-1 text-sm text-red-700 dark:text-red-300" role="alert">
        {errors[k]}
      </p>
    ) : null;
  const setCond = (key: number, patch: Partial<CondDraft>) =>
    setConditions((cs) => cs.map((c) => (c.key === key ? { ...c, ...patch } : c)));
  const setAction = (key: number, patch: Partial<ActionDraft>) =>
    setActions((as) => as.map((a) => (a.key === key ? { ...a, ...patch } : a)));

  async function save(e: React.FormEvent) {
    e.preventDefault();
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[issue.path.join(".")] ??= issue.message;
      setErrors(next);
      setMessage("Check the highlighted fields");
      return;
    }
    setErrors({});
    setMessage(null);
    setPending(true);
    const { name: n, trigger, conditions: cs, actions: as } = parsed.data;
    // An update leaves what the editor does not show (enabled, senders) as it is.
    const result = rule
      ? await updateRuleAction({ uid: rule.ruleUid, rule: { name: n, trigger, conditions: cs, actions: as } })
      : await createRuleAction({ rule: parsed.data });
    setPending(false);
    if (!result.ok) {
      setErrors(result.fields ?? {});
      setMessage(result.message);
      toast.error(result.message);
      return;
    }
    toast.success(rule ? "Rule saved" : "Rule created");
    router.push(`/automations/${rule?.ruleUid ?? (result.data as { uid: string }).uid}`);
    router.refresh();
  }

  return (
    <form className="space-y-5" onSubmit={save} noValidate>
      <FormAlert message={message} />
      <div>
        <label className={label} htmlFor="rule-name">
          Name
        </label>
        <input id="rule-name" className={input} value={name} onChange={(e) => setName(e.target.value)} />
        {err("name")}
      </div>
      <fieldset className="space-y-2">
        <legend className={label}>When</legend>
        <div className="flex flex-wrap items-center gap-2">
          <select
            aria-label="Trigger"
            className={input}
            value={event}
            onChange={(e) => setEvent(e.target.value as typeof event)}
          >
            {TRIGGER_EVENTS.map((t) => (
              <option key={t} value={t}>
                {TRIGGER_WORDS[t]}
              </option>
            ))}
          </select>
          {timed ? (
            <label className="flex items-center gap-1 text-sm">
              <input
                aria-label="Minutes"
                type="number"
                min={1}
                className={`${input} w-24`}
                value={minutes}
                onChange={(e) => setMinutes(Number(e.target.value))}
              />
              minutes
            </label>
          ) : null}
        </div>
        {err("trigger.minutes")}
      </fieldset>
      <fieldset className="space-y-2">
        <legend className={label}>And (all must hold)</legend>
        {conditions.map((c, i) => {
          const ops: readonly string[] = FIELD_OPS[c.field as keyof typeof FIELD_OPS] ?? [];
          return (
            <div key={c.key} className="flex flex-wrap items-center gap-2" data-testid="condition">
              <select
                aria-label={`Condition ${i + 1} field`}
                className={input}
                value={c.field}
                onChange={(e) => {
                  const field = e.target.value as keyof typeof FIELD_OPS;
                  setCond(c.key, { field, op: FIELD_OPS[field][0] });
                }}
              >
                {Object.keys(FIELD_OPS).map((f) => (
                  <option key={f} value={f}>
                    {FIELD_WORDS[f]}
                  </option>
                ))}
              </select>
              {c.field === "contact.field" ? (
                <input
                  aria-label={`Condition ${i + 1} field key`}
                  className={`${input} w-32`}
                  placeholder="key"
                  value={c.fieldKey}
                  onChange={(e) => setCond(c.key, { fieldKey: e.target.value })}
                />
              ) : null}
              {c.field === "time" ? (
                <select
                  aria-label={`Condition ${i + 1} value`}
                  className={input}
                  value={c.inHours ? "in" : "out"}
                  onChange={(e) => setCond(c.key, { inHours: e.target.value === "in" })}
                >
                  <option value="in">is within business hours</option>
                  <option value="out">is outside business hours</option>
                </select>
              ) : (
                <>
                  <select
                    aria-label={`Condition ${i + 1} operator`}
                    className={input}
                    value={c.op}
                    onChange={(e) => setCond(c.key, { op: e.target.value })}
                  >
                    {ops.map((o) => (
                      <option key={o} value={o}>
                        {o.replace("_", " ")}
                      </option>
                    ))}
                  </select>
                  <input
                    aria-label={`Condition ${i + 1} value`}
                    className={`${input} w-48`}
                    value={c.value}
                    onChange={(e) => setCond(c.key, { value: e.target.value })}
                  />
                </>
              )}
              <button
                type="button"
                className={buttonSecondary}
                onClick={() => setConditions((cs) => cs.filter((x) => x.key !== c.key))}
              >
                Remove
              </button>
              {err(`conditions.${i}.value`)}
              {err(`conditions.${i}.op`)}
              {err(`conditions.${i}.field`)}
            </div>
          );
        })}
        <button
          type="button"
          className={buttonSecondary}
          onClick={() =>
            setConditions((cs) => [
              ...cs,
              { key: nextKey(), field: "message.text", fieldKey: "", op: "contains", value: "", inHours: true },
            ])
          }
        >
          Add a condition
        </button>
      </fieldset>
      <fieldset className="space-y-2">
        <legend className={label}>Then (in order)</legend>
        {actions.map((a, i) => (
          <div key={a.key} className="flex flex-wrap items-center gap-2" data-testid="action">
            <select
              aria-label={`Action ${i + 1}`}
              className={input}
              value={a.type}
              onChange={(e) => setAction(a.key, { type: e.target.value as ActionDraft["type"] })}
            >
              {ACTION_TYPES.map((t) => (
                <option key={t} value={t}>
                  {ACTION_WORDS[t]}
                </option>
              ))}
            </select>
            {a.type === "assign" ? (
              <>
                <input
                  aria-label={`Action ${i + 1} assignee email`}
                  className={`${input} w-56`}
                  placeholder="member@example.com"
                  disabled={a.roundRobin}
                  value={a.assignee}
                  onChange={(e) => setAction(a.key, { assignee: e.target.value })}
                />
                <label className="flex items-center gap-1 text-sm">
                  <input
                    type="checkbox"
                    checked={a.roundRobin}
                    onChange={(e) => setAction(a.key, { roundRobin: e.target.checked })}
                  />
                  next agent in turn
                </label>
              </>
            ) : null}
            {a.type === "label" || a.type === "unlabel" ? (
              <input
                aria-label={`Action ${i + 1} labels`}
                className={`${input} w-56`}
                placeholder="refund, vip"
                value={a.labels}
                onChange={(e) => setAction(a.key, { labels: e.target.value })}
              />
            ) : null}
            {a.type === "note" || a.type === "send_text" ? (
              <input
                aria-label={`Action ${i + 1} text`}
                className={`${input} w-64`}
                value={a.text}
                onChange={(e) => setAction(a.key, { text: e.target.value })}
              />
            ) : null}
            {a.type === "send_text" || a.type === "send_template" ? (
              <>
                <input
                  aria-label={a.type === "send_text" ? `Action ${i + 1} fallback template` : `Action ${i + 1} template`}
                  className={`${input} w-40`}
                  placeholder={a.type === "send_text" ? "fallback template" : "template name"}
                  value={a.template}
                  onChange={(e) => setAction(a.key, { template: e.target.value })}
                />
                <input
                  aria-label={`Action ${i + 1} language`}
                  className={`${input} w-20`}
                  value={a.language}
                  onChange={(e) => setAction(a.key, { language: e.target.value })}
                />
              </>
            ) : null}
            {a.type === "snooze" ? (
              <input
                aria-label={`Action ${i + 1} minutes`}
                type="number"
                min={1}
                className={`${input} w-24`}
                value={a.minutes}
                onChange={(e) => setAction(a.key, { minutes: Number(e.target.value) })}
              />
            ) : null}
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => setActions((as) => as.filter((x) => x.key !== a.key))}
            >
              Remove
            </button>
            {Object.entries(errors)
              .filter(([k]) => k.startsWith(`actions.${i}.`) || k === `actions.${i}`)
              .map(([k, v]) => (
                <p key={k} className="w-full text-sm text-red-700 dark:text-red-300" role="alert">
                  {v}
                </p>
              ))}
          </div>
        ))}
        {err("actions")}
        <button type="button" className={buttonSecondary} onClick={() => setActions((as) => [...as, emptyAction()])}>
          Add an action
        </button>
      </fieldset>
      <p className="text-sm" data-testid="rule-preview" aria-live="polite">
        {sentence ?? "Fill in the rule to read it here."}
      </p>
      <button type="submit" className={button} disabled={pending}>
        {rule ? "Save rule" : "Create rule"}
      </button>
    </form>
  );
}
