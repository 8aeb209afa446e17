// A thread entry's content and its one-line preview (at most 100 characters), from a
// provider message body (inbound callbacks and outbound payloads share the shape).

export const PREVIEW_MAX = 100;

type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === "string" ? v : undefined);

/** {<type>: body[type]} of a provider message (the type's object only). */
export function contentOf(type: string, body: Obj): Obj {
  return { [type]: body[type] ?? null };
}

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length <= PREVIEW_MAX ? one : `${one.slice(0, PREVIEW_MAX - 1)}…`;
}

/** A short text for the list: the text itself, a caption, or what kind of message it was. */
export function previewOf(type: string, body: Obj): string {
  const part = (body[type] ?? {}) as Obj;
  switch (type) {
    case "text":
      return clip(str(part.body) ?? "");
    case "template":
      return clip(`Template: ${str(part.name) ?? ""}`);
    case "image":
    case "video":
    case "document":
      return clip(str(part.caption) ?? str(part.filename) ?? `[${type}]`);
    case "location":
      return clip(`[location] ${str(part.name) ?? str(part.address) ?? ""}`);
    case "button":
      return clip(str(part.text) ?? "[button]");
    case "interactive": {
      const reply = (part.button_reply ?? part.list_reply) as Obj | undefined;
      const text = str(reply?.title) ?? str((part.body as Obj | undefined)?.text);
      return clip(text ?? "[interactive]");
    }
    case "reaction":
      return clip(`Reacted ${str(part.emoji) ?? ""}`);
    case "system":
      return clip(str(part.body) ?? "");
    default:
      return `[${type}]`;
  }
}

/** The whole text a contact typed, for keyword matching (text and quick-reply buttons). */
export function typedText(type: string, body: Obj): string | undefined {
  const part = (body[type] ?? {}) as Obj;
  if (type === "text") return str(part.body);
  if (type === "button") return str(part.text);
  return undefined;
}

/** A tap on reply buttons or a pick from a list (an inbound interactive reply), as the thread and events show it. */
export type InteractiveReply = {
  type: "button_reply" | "list_reply";
  id: string;
  title: string;
  description?: string;
};

export function replyOf(type: string, body: Obj): InteractiveReply | null {
  if (type !== "interactive") return null;
  const part = (body.interactive ?? {}) as Obj;
  const kind = part.type;
  if (kind !== "button_reply" && kind !== "list_reply") return null;
  const reply = (part[kind] ?? {}) as Obj;
  const id = str(reply.id);
  if (id === undefined) return null;
  const description = str(reply.description);
  return { type: kind, id, title: str(reply.title) ?? "", ...(description ? { description } : {}) };
}
