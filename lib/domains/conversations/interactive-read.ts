// The provider's interactive object (button, list, cta_url) read into our shape: the thread
// shows an outbound interactive message in the shape the API took it
// (docs/messaging.md "Buttons, lists and links"), and the send checks read a provider-shaped
// body through the same schema as ours. Values are untouched: a schema judges them.

export const INTERACTIVE_TYPES = ["buttons", "list", "cta_url"] as const;
export type InteractiveType = (typeof INTERACTIVE_TYPES)[number];

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const drop = <T extends Obj>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const OURS: Record<string, InteractiveType> = { button: "buttons", list: "list", cta_url: "cta_url" };

/** Our type of a provider `interactive.type` we check (others, such as order details, pass as sent). */
export const ourInteractiveType = (providerType: unknown): InteractiveType | undefined =>
  typeof providerType === "string" ? OURS[providerType] : undefined;

/** The provider's object read into our shape, values untouched. */
export function readProviderInteractive(type: InteractiveType, v: Obj): Obj {
  const header = obj(v.header);
  const action = obj(v.action) ?? {};
  const headerType = header?.type;
  const ours: Obj = {
    header: header
      ? drop({
          type: headerType,
          text: header.text,
          media: typeof headerType === "string" && headerType !== "text" ? header[headerType] : undefined,
        })
      : undefined,
    body: obj(v.body)?.text,
    footer: v.footer === undefined ? undefined : obj(v.footer)?.text,
  };
  if (type === "buttons")
    ours.buttons = Array.isArray(action.buttons)
      ? action.buttons.map((b) => obj(obj(b)?.reply) ?? b)
      : (action.buttons ?? []);
  if (type === "list") ours.list = drop({ button: action.button, sections: action.sections });
  if (type === "cta_url") {
    const p = obj(action.parameters);
    ours.ctaUrl = p ? drop({ displayText: p.display_text, url: p.url }) : action.parameters;
  }
  return drop(ours);
}
