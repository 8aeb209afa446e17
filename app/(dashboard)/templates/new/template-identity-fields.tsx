// The builder's first fields: the template's name, category and language (with the name's
// error from the API's own schema under it).
import { input, label, muted } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { TEMPLATE_CATEGORIES } from "@/lib/domains/templates/schemas";

const LANGUAGES = [
  ["en", "English"],
  ["en_US", "English (US)"],
  ["en_GB", "English (UK)"],
  ["es", "Spanish"],
  ["pt_BR", "Portuguese (Brazil)"],
  ["fr", "French"],
  ["de", "German"],
  ["it", "Italian"],
  ["nl", "Dutch"],
] as const;

export type TemplateIdentity = { name: string; category: string; language: string };

export function TemplateIdentityFields({
  value,
  onChange,
  nameError,
}: {
  value: TemplateIdentity;
  onChange: (patch: Partial<TemplateIdentity>) => void;
  nameError: string | undefined;
}) {
  return (
    <>
      <div>
        <label htmlFor="tpl-name" className={label}>
          Name
        </label>
        <input
          id="tpl-name"
          className={`${input} font-mono`}
          value={value.name}
          onChange={(e) => onChange({ name: e.target.value })}
          placeholder="order_update"
          aria-describedby="tpl-name-hint"
          {...errorProps("tpl-name", nameError)}
        />
        <p id="tpl-name-hint" className={muted}>
          Lower-case letters, digits and underscores.
        </p>
        <FieldMessage inputId="tpl-name" message={nameError} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor="tpl-category" className={label}>
            Category
          </label>
          <select
            id="tpl-category"
            className={input}
            value={value.category}
            onChange={(e) => onChange({ category: e.target.value })}
          >
            {TEMPLATE_CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {c.charAt(0) + c.slice(1).toLowerCase()}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="tpl-language" className={label}>
            Language
          </label>
          <select
            id="tpl-language"
            className={input}
            value={value.language}
            onChange={(e) => onChange({ language: e.target.value })}
          >
            {LANGUAGES.map(([code, title]) => (
              <option key={code} value={code}>
                {title} ({code})
              </option>
            ))}
          </select>
        </div>
      </div>
    </>
  );
}
