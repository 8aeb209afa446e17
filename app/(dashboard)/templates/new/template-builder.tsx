"use client";
// The template builder (docs/templates.md "The builder"): name, category, language, header,
// body with a sample value per variable, footer and buttons, with the preview the recipient
// would see (samples filled in). The draft becomes the provider's components
// (lib/domains/templates/draft.ts), checked with the API's own schema, and is created and
// submitted for review by createTemplateAction, as POST /templates does. The fields live in
// template-identity-fields.tsx, template-content-fields.tsx and template-button-fields.tsx.
import { useRouter } from "next/navigation";
import { type FormEvent, useMemo, useState } from "react";
import { TemplatePreview } from "@/components/dashboard/template-fill";
import { useToast } from "@/components/dashboard/toast";
import { button, muted } from "@/components/ui/classes";
import { FormAlert } from "@/components/ui/form-alert";
import { draftComponents, draftProblem, emptyDraft, type TemplateDraft } from "@/lib/domains/templates/draft";
import { sampleValues } from "@/lib/domains/templates/fill";
import { TemplateFields } from "@/lib/domains/templates/schemas";
import { createTemplateAction } from "../actions";
import { ButtonFields } from "./template-button-fields";
import { BodyFields, FooterField, HeaderFields } from "./template-content-fields";
import { type TemplateIdentity, TemplateIdentityFields } from "./template-identity-fields";

export function TemplateBuilder({ senderPhone }: { senderPhone: string }) {
  const router = useRouter();
  const toast = useToast();
  const [identity, setIdentity] = useState<TemplateIdentity>({ name: "", category: "UTILITY", language: "en" });
  const [draft, setDraft] = useState<TemplateDraft>(emptyDraft);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const set = (patch: Partial<TemplateDraft>) => setDraft((d) => ({ ...d, ...patch }));
  const components = useMemo(() => draftComponents(draft), [draft]);

  const fail = (text: string, fields: Record<string, string>) => {
    setErrors(fields);
    setMessage(text);
    toast.error(text);
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = draftProblem(draft);
    const parsed = TemplateFields.safeParse({ ...identity, components });
    if (problem || !parsed.success) {
      const fields: Record<string, string> = {};
      if (!parsed.success) for (const issue of parsed.error.issues) fields[String(issue.path[0])] ??= issue.message;
      return fail(problem ?? Object.values(fields)[0] ?? "Check the form", fields);
    }
    setErrors({});
    setMessage(null);
    setPending(true);
    const result = await createTemplateAction({ senderId: senderPhone, template: parsed.data });
    setPending(false);
    if (!result.ok) return fail(result.message, result.fields ?? {});
    toast.success("Template submitted for review");
    router.push(`/templates/${result.data.uid}`);
    router.refresh();
  }

  return (
    <form onSubmit={submit} className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]" aria-label="New template">
      <div className="space-y-4">
        <TemplateIdentityFields
          value={identity}
          onChange={(patch) => setIdentity((v) => ({ ...v, ...patch }))}
          nameError={errors.name}
        />
        <HeaderFields draft={draft} set={set} />
        <BodyFields draft={draft} set={set} />
        <FooterField draft={draft} set={set} />
        <ButtonFields buttons={draft.buttons} onChange={(buttons) => set({ buttons })} />
        <FormAlert message={message} />
        <button type="submit" className={button} disabled={pending}>
          {pending ? "Submitting…" : "Create and submit for review"}
        </button>
      </div>
      <div className="space-y-2">
        <h2 className="text-sm font-semibold">What the recipient sees</h2>
        <TemplatePreview components={components} values={sampleValues(components)} />
        <p className={muted}>With the samples filled in; each send gives its own values.</p>
      </div>
    </form>
  );
}
