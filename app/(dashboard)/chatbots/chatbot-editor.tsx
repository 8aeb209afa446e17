"use client";
// The chatbot editor: rules in order (move up/down), match type (reply_id: a tapped button's
// id), reply (text, template, buttons, a list or a link with a live preview), hand-off, the
// fallback and business hours. The form is checked with the API's own zod schema
// (lib/domains/chatbots/schemas.ts) before it is sent, and again by the server action.
import { useRouter } from "next/navigation";
import { useMemo, useState } from "react";
import { useToast } from "@/components/dashboard/toast";
import { button, buttonSecondary, card, input, label } from "@/components/ui/classes";
import { FormAlert } from "@/components/ui/form-alert";
import { MATCH_TYPES, type MatchType } from "@/lib/domains/chatbots/engine";
import { ChatbotCreateInput, type ChatbotPublic } from "@/lib/domains/chatbots/schemas";
import { createChatbotAction, updateChatbotAction } from "./actions";
import { emptyReply, type ReplyDraft, ReplyFields, replyDraftOf, replyOf } from "./reply-fields";

type RuleDraft = {
  key: number;
  type: MatchType;
  value: string;
  caseSensitive: boolean;
  handoff: boolean;
  reply: ReplyDraft;
};
type DayDraft = { key: number; day: number; open: string; close: string };

const DAY_NAMES = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const MATCH_LABELS: Record<MatchType, string> = {
  keyword: "Keyword (whole message)",
  contains: "Contains",
  regex: "Regular expression",
  any: "Any message",
  reply_id: "Reply id (a tapped button or list row)",
};

let seq = 0;
const nextKey = () => {
  seq += 1;
  return seq;
};

function timeZones(): string[] {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return ["UTC"];
  }
}

type Props = { senderPhone: string; chatbot?: ChatbotPublic };

export function ChatbotEditor({ senderPhone, chatbot }: Props) {
  const toast = useToast();
  const router = useRouter();
  const zones = useMemo(timeZones, []);
  const [name, setName] = useState(chatbot?.name ?? "");
  const [rules, setRules] = useState<RuleDraft[]>(
    (chatbot?.rules ?? []).map((r) => ({
      key: nextKey(),
      type: r.match.type,
      value: r.match.value ?? "",
      caseSensitive: r.match.caseSensitive === true,
      handoff: r.handoff === true,
      reply: replyDraftOf(r.reply),
    })),
  );
  const [fallbackOn, setFallbackOn] = useState(Boolean(chatbot?.fallbackReply));
  const [fallback, setFallback] = useState<ReplyDraft>(replyDraftOf(chatbot?.fallbackReply ?? null));
  const hours = chatbot?.businessHours;
  const [hoursOn, setHoursOn] = useState(Boolean(hours));
  const [timezone, setTimezone] = useState(hours?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [days, setDays] = useState<DayDraft[]>(
    (hours?.days ?? [1, 2, 3, 4, 5].map((day) => ({ day, open: "09:00", close: "17:00" }))).map((d) => ({
      key: nextKey(),
      ...d,
    })),
  );
  const [away, setAway] = useState<ReplyDraft>(replyDraftOf(hours?.awayReply ?? null));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const values = () => ({
    name,
    rules: rules.map((r) => ({
      match: {
        type: r.type,
        ...(r.type === "any" ? {} : { value: r.value }),
        ...(r.caseSensitive && r.type !== "any" && r.type !== "reply_id" ? { caseSensitive: true } : {}),
      },
      reply: replyOf(r.reply),
      ...(r.handoff ? { handoff: true } : {}),
    })),
    fallbackReply: fallbackOn ? replyOf(fallback) : null,
    businessHours: hoursOn
      ? { timezone, days: days.map(({ day, open, close }) => ({ day, open, close })), awayReply: replyOf(away) }
      : null,
  });

  const sub = (prefix: string) =>
    Object.fromEntries(
      Object.entries(errors)
        .filter(([k]) => k.startsWith(`${prefix}.`))
        .map(([k, v]) => [k.slice(prefix.length + 1), v]),
    );
  const err = (k: string) =>
    errors[k] ? (
      <p className="mt-1 text-sm text-red-700 dark:text-red-300" role="alert">
        {errors[k]}
      </p>
    ) : null;

  async function save(e: React.FormEvent) {
    e.preventDefault();
    const raw = values();
    const parsed = ChatbotCreateInput.safeParse(raw);
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[issue.path.join(".")] ??= issue.message;
      setErrors(next);
      setMessage("Check the highlighted fields");
      toast.error(parsed.error.issues[0]?.message ?? "Check the form");
      return;
    }
    setErrors({});
    setMessage(null);
    setPending(true);
    const result = chatbot
      ? await updateChatbotAction({ uid: chatbot.chatbotUid, chatbot: raw })
      : await createChatbotAction({ senderId: senderPhone, chatbot: raw });
    setPending(false);
    if (!result.ok) {
      // Field errors come back by their last path segment (name, status, ...).
      setErrors(result.fields ?? {});
      setMessage(result.message);
      toast.error(result.message);
      return;
    }
    toast.success(chatbot ? "Chatbot saved" : "Chatbot created");
    const uid = chatbot?.chatbotUid ?? (result.data as { uid: string }).uid;
    router.push(`/chatbots/${uid}?sender=${encodeURIComponent(senderPhone)}`);
    router.refresh();
  }

  const move = (i: number, by: number) =>
    setRules((rs) => {
      const next = [...rs];
      const [r] = next.splice(i, 1);
      if (r) next.splice(i + by, 0, r);
      return next;
    });
  const patchRule = (i: number, patch: Partial<RuleDraft>) =>
    setRules((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  return (
    <form onSubmit={save} className="space-y-6" noValidate>
      <div className="max-w-md">
        <label htmlFor="cb-name" className={label}>
          Name
        </label>
        <input id="cb-name" className={input} value={name} onChange={(e) => setName(e.target.value)} />
        {err("name")}
      </div>

      <section aria-labelledby="cb-rules" className="space-y-3">
        <h2 id="cb-rules" className="text-lg font-semibold">
          Rules <span className="text-sm font-normal">(tried in order; the first match answers)</span>
        </h2>
        {err("rules")}
        <ol className="space-y-3">
          {rules.map((r, i) => (
            <li key={r.key} className={card} data-testid="rule" aria-label={`Rule ${i + 1}`}>
              <div className="mb-2 flex flex-wrap items-center gap-2">
                <span className="font-semibold">Rule {i + 1}</span>
                <button type="button" className={buttonSecondary} disabled={i === 0} onClick={() => move(i, -1)}>
                  Move up
                </button>
                <button
                  type="button"
                  className={buttonSecondary}
                  disabled={i === rules.length - 1}
                  onClick={() => move(i, 1)}
                >
                  Move down
                </button>
                <button
                  type="button"
                  className={buttonSecondary}
                  onClick={() => setRules((rs) => rs.filter((_, j) => j !== i))}
                >
                  Remove
                </button>
              </div>
              <div className="grid gap-2 sm:grid-cols-3">
                <div>
                  <label htmlFor={`r${r.key}-type`} className={label}>
                    Match
                  </label>
                  <select
                    id={`r${r.key}-type`}
                    className={input}
                    value={r.type}
                    onChange={(e) => patchRule(i, { type: e.target.value as MatchType })}
                  >
                    {MATCH_TYPES.map((t) => (
                      <option key={t} value={t}>
                        {MATCH_LABELS[t]}
                      </option>
                    ))}
                  </select>
                  {err(`rules.${i}.match.type`)}
                </div>
                {r.type !== "any" && (
                  <div className="sm:col-span-2">
                    <label htmlFor={`r${r.key}-value`} className={label}>
                      Value
                    </label>
                    <input
                      id={`r${r.key}-value`}
                      className={input}
                      value={r.value}
                      onChange={(e) => patchRule(i, { value: e.target.value })}
                    />
                    {err(`rules.${i}.match.value`)}
                    {r.type === "reply_id" ? (
                      <p className="mt-1 text-sm">The id of a button or list row, matched exactly.</p>
                    ) : (
                      <label className="mt-1 flex items-center gap-2 text-sm">
                        <input
                          type="checkbox"
                          checked={r.caseSensitive}
                          onChange={(e) => patchRule(i, { caseSensitive: e.target.checked })}
                        />
                        Case-sensitive
                      </label>
                    )}
                  </div>
                )}
              </div>
              <div className="mt-2">
                <ReplyFields
                  id={`r${r.key}-reply`}
                  legend="Reply"
                  value={r.reply}
                  onChange={(reply) => patchRule(i, { reply })}
                  errors={sub(`rules.${i}.reply`)}
                />
              </div>
              <label className="mt-2 flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  checked={r.handoff}
                  onChange={(e) => patchRule(i, { handoff: e.target.checked })}
                />
                Hand off to a person (the bot stays quiet for 30 minutes)
              </label>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className={buttonSecondary}
          onClick={() =>
            setRules((rs) => [
              ...rs,
              { key: nextKey(), type: "keyword", value: "", caseSensitive: false, handoff: false, reply: emptyReply() },
            ])
          }
        >
          Add rule
        </button>
      </section>

      <section aria-labelledby="cb-fallback" className="space-y-2">
        <h2 id="cb-fallback" className="text-lg font-semibold">
          Fallback
        </h2>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={fallbackOn} onChange={(e) => setFallbackOn(e.target.checked)} />
          Answer messages no rule matches
        </label>
        {fallbackOn && (
          <ReplyFields
            id="cb-fb"
            legend="Fallback reply"
            value={fallback}
            onChange={setFallback}
            errors={sub("fallbackReply")}
          />
        )}
      </section>

      <section aria-labelledby="cb-hours" className="space-y-2">
        <h2 id="cb-hours" className="text-lg font-semibold">
          Business hours
        </h2>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={hoursOn} onChange={(e) => setHoursOn(e.target.checked)} />
          Outside these hours, send the away reply instead
        </label>
        {hoursOn && (
          <div className="space-y-3">
            <div className="max-w-md">
              <label htmlFor="cb-tz" className={label}>
                Time zone
              </label>
              <input
                id="cb-tz"
                list="cb-tz-list"
                className={input}
                value={timezone}
                onChange={(e) => setTimezone(e.target.value)}
              />
              <datalist id="cb-tz-list">
                {zones.map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
              {err("businessHours.timezone")}
            </div>
            {err("businessHours.days")}
            <ul className="space-y-2">
              {days.map((d, i) => (
                <li key={d.key} className="flex flex-wrap items-end gap-2">
                  <div>
                    <label htmlFor={`d${d.key}-day`} className={label}>
                      Day
                    </label>
                    <select
                      id={`d${d.key}-day`}
                      className={input}
                      value={d.day}
                      onChange={(e) =>
                        setDays((ds) => ds.map((x, j) => (j === i ? { ...x, day: Number(e.target.value) } : x)))
                      }
                    >
                      {DAY_NAMES.map((n, v) => (
                        <option key={n} value={v}>
                          {n}
                        </option>
                      ))}
                    </select>
                  </div>
                  {(["open", "close"] as const).map((k) => (
                    <div key={k}>
                      <label htmlFor={`d${d.key}-${k}`} className={label}>
                        {k === "open" ? "Opens" : "Closes"}
                      </label>
                      <input
                        id={`d${d.key}-${k}`}
                        className={`${input} w-28`}
                        value={d[k]}
                        placeholder="HH:MM"
                        onChange={(e) =>
                          setDays((ds) => ds.map((x, j) => (j === i ? { ...x, [k]: e.target.value } : x)))
                        }
                      />
                      {err(`businessHours.days.${i}.${k}`)}
                    </div>
                  ))}
                  <button
                    type="button"
                    className={buttonSecondary}
                    onClick={() => setDays((ds) => ds.filter((_, j) => j !== i))}
                  >
                    Remove
                  </button>
                </li>
              ))}
            </ul>
            <button
              type="button"
              className={buttonSecondary}
              onClick={() => setDays((ds) => [...ds, { key: nextKey(), day: 6, open: "10:00", close: "14:00" }])}
            >
              Add opening window
            </button>
            <ReplyFields
              id="cb-away"
              legend="Away reply"
              value={away}
              onChange={setAway}
              errors={sub("businessHours.awayReply")}
            />
          </div>
        )}
      </section>

      <FormAlert message={message} />
      <button type="submit" className={button} disabled={pending}>
        {pending ? "Saving…" : chatbot ? "Save chatbot" : "Create chatbot"}
      </button>
    </form>
  );
}
