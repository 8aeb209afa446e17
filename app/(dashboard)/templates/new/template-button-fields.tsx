// The builder's buttons (up to ten): each with its type, and the label, URL or phone number
// and sample its type takes; a URL ending with {{1}} asks for a sample, as a copy-code
// button asks for its code.
import { buttonSecondary, input, label } from "@/components/ui/classes";
import { BUTTON_TYPES, type ButtonDraft, type ButtonType } from "@/lib/domains/templates/draft";
import { variablesOf } from "@/lib/domains/templates/parameters";

const BUTTON_LABELS: Record<ButtonType, string> = {
  QUICK_REPLY: "Quick reply",
  URL: "Visit website",
  PHONE_NUMBER: "Call phone number",
  COPY_CODE: "Copy code",
};

const MAX_BUTTONS = 10;

export function ButtonFields({
  buttons,
  onChange,
}: {
  buttons: ButtonDraft[];
  onChange: (next: ButtonDraft[]) => void;
}) {
  const setButton = (i: number, patch: Partial<ButtonDraft>) =>
    onChange(buttons.map((b, j) => (j === i ? { ...b, ...patch } : b)));
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold">Buttons (optional)</legend>
      {buttons.map((b, i) => (
        <ButtonEditor
          key={i}
          index={i}
          b={b}
          onChange={(patch) => setButton(i, patch)}
          onRemove={() => onChange(buttons.filter((_, j) => j !== i))}
        />
      ))}
      {buttons.length < MAX_BUTTONS ? (
        <button
          type="button"
          className={buttonSecondary}
          onClick={() => onChange([...buttons, { type: "QUICK_REPLY", text: "", value: "", example: "" }])}
        >
          Add a button
        </button>
      ) : null}
    </fieldset>
  );
}

function ButtonEditor({
  index: i,
  b,
  onChange,
  onRemove,
}: {
  index: number;
  b: ButtonDraft;
  onChange: (patch: Partial<ButtonDraft>) => void;
  onRemove: () => void;
}) {
  const n = i + 1;
  return (
    <div className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-700">
      <div className="flex items-end gap-2">
        <div className="flex-1">
          <label htmlFor={`tpl-button-${i}-type`} className={label}>
            Button {n} type
          </label>
          <select
            id={`tpl-button-${i}-type`}
            className={input}
            value={b.type}
            onChange={(e) => onChange({ type: e.target.value as ButtonType })}
          >
            {BUTTON_TYPES.map((t) => (
              <option key={t} value={t}>
                {BUTTON_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <button type="button" className={buttonSecondary} onClick={onRemove}>
          Remove button {n}
        </button>
      </div>
      {b.type !== "COPY_CODE" ? (
        <div>
          <label htmlFor={`tpl-button-${i}-text`} className={label}>
            Button {n} label
          </label>
          <input
            id={`tpl-button-${i}-text`}
            className={input}
            value={b.text}
            maxLength={25}
            onChange={(e) => onChange({ text: e.target.value })}
          />
        </div>
      ) : null}
      {b.type === "URL" || b.type === "PHONE_NUMBER" ? (
        <div>
          <label htmlFor={`tpl-button-${i}-value`} className={label}>
            {b.type === "URL" ? `Button ${n} URL (may end with {{1}})` : `Button ${n} phone number`}
          </label>
          <input
            id={`tpl-button-${i}-value`}
            className={input}
            value={b.value}
            placeholder={b.type === "URL" ? "https://example.com/track/{{1}}" : "+14155550100"}
            onChange={(e) => onChange({ value: e.target.value })}
          />
        </div>
      ) : null}
      {(b.type === "URL" && variablesOf(b.value).names.length > 0) || b.type === "COPY_CODE" ? (
        <div>
          <label htmlFor={`tpl-button-${i}-example`} className={label}>
            {b.type === "URL" ? `Button ${n} sample for {{1}}` : `Button ${n} sample code`}
          </label>
          <input
            id={`tpl-button-${i}-example`}
            className={input}
            value={b.example}
            onChange={(e) => onChange({ example: e.target.value })}
          />
        </div>
      ) : null}
    </div>
  );
}
