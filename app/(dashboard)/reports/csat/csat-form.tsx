"use client";
// The CSAT survey setting (docs/reports.md "CSAT"): on or off, the question, and the utility
// template sent when the window is closed; checked with the API's schema before it is sent.
import { useState } from "react";
import { useBodyForm } from "@/components/dashboard/use-action-form";
import { button, input, label, muted } from "@/components/ui/classes";
import { FormAlert } from "@/components/ui/form-alert";
import { type CsatSetting, CsatSettingBody } from "@/lib/domains/support/csat-schemas";
import { setCsatAction } from "../actions";

type Choice = { name: string; language: string; status: string };
const keyOf = (t: { name: string; language: string }) => `${t.name}|${t.language}`;

export function CsatForm({ setting, templates }: { setting: CsatSetting; templates: Choice[] }) {
  const [enabled, setEnabled] = useState(setting.enabled);
  const [question, setQuestion] = useState(setting.question);
  const [template, setTemplate] = useState(setting.template ? keyOf(setting.template) : "");
  const { submit, pending, message } = useBodyForm({
    schema: CsatSettingBody,
    action: setCsatAction,
    success: "CSAT survey saved",
  });

  async function save(e: React.FormEvent) {
    e.preventDefault();
    const chosen = templates.find((t) => keyOf(t) === template);
    const body = {
      enabled,
      question: question.trim(),
      template: chosen ? { name: chosen.name, language: chosen.language } : null,
    };
    await submit(body);
  }

  return (
    <form className="space-y-4" onSubmit={save} noValidate>
      <FormAlert message={message} />
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
        Ask the contact for a rating when a member closes their conversation
      </label>
      <div>
        <label className={label} htmlFor="csat-question">
          Question
        </label>
        <textarea
          id="csat-question"
          className={input}
          rows={2}
          maxLength={1024}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
        />
        <p className={muted}>Sent with three buttons: 😞 Unhappy, 😐 Neutral, 😀 Happy.</p>
      </div>
      <div>
        <label className={label} htmlFor="csat-template">
          Utility template when the 24-hour window is closed
        </label>
        <select id="csat-template" className={input} value={template} onChange={(e) => setTemplate(e.target.value)}>
          <option value="">None: no survey once the window is closed</option>
          {templates.map((t) => (
            <option key={keyOf(t)} value={keyOf(t)}>
              {t.name} ({t.language}){t.status === "APPROVED" ? "" : `, ${t.status.toLowerCase()}`}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className={button} disabled={pending}>
        Save
      </button>
    </form>
  );
}
