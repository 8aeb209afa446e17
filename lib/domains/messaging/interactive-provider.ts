// Our interactive object <-> the provider's (Cloud API `interactive`: button, list, cta_url).
// A provider-shaped body is read into our shape and checked by the one schema of
// interactive.ts; each refusal names the field where the provider's body holds it.
import type { z } from "zod";
import { ourInteractiveType, readProviderInteractive } from "@/lib/domains/conversations/interactive-read";
import { checkInteractiveParts, Interactive, type InteractiveInput, type InteractiveType } from "./interactive";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
const drop = <T extends Obj>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

/** The provider's `interactive` object of one of our sends. */
export function toProviderInteractive(type: InteractiveType, i: InteractiveInput): Obj {
  const header = i.header
    ? i.header.type === "text"
      ? { type: "text", text: i.header.text }
      : { type: i.header.type, [i.header.type]: drop({ id: i.header.media?.id, link: i.header.media?.link }) }
    : undefined;
  const common = drop({ header, body: { text: i.body }, footer: i.footer ? { text: i.footer } : undefined });
  if (type === "buttons")
    return {
      type: "button",
      ...common,
      action: { buttons: (i.buttons ?? []).map((b) => ({ type: "reply", reply: { id: b.id, title: b.title } })) },
    };
  if (type === "list")
    return {
      type: "list",
      ...common,
      action: {
        button: i.list?.button,
        sections: (i.list?.sections ?? []).map((s) =>
          drop({
            title: s.title,
            rows: s.rows.map((r) => drop({ id: r.id, title: r.title, description: r.description })),
          }),
        ),
      },
    };
  return {
    type: "cta_url",
    ...common,
    action: { name: "cta_url", parameters: { display_text: i.ctaUrl?.displayText, url: i.ctaUrl?.url } },
  };
}

/** Where the provider's body holds the field at one of our paths. */
function providerPath(path: readonly PropertyKey[], header: Obj | undefined): PropertyKey[] {
  const [first, ...rest] = path;
  switch (first) {
    case "body":
    case "footer":
      return [first, "text"];
    case "header":
      return rest[0] === "media" ? ["header", String(header?.type ?? "media"), ...rest.slice(1)] : path.slice();
    case "buttons":
      return rest.length >= 2
        ? ["action", "buttons", rest[0] as PropertyKey, "reply", ...rest.slice(1)]
        : ["action", "buttons", ...rest];
    case "list":
      return ["action", ...rest];
    case "ctaUrl":
      return ["action", "parameters", ...(rest[0] === "displayText" ? ["display_text"] : rest)];
    default:
      return path.slice();
  }
}

/**
 * The check of a provider-shaped `interactive` (a refinement of POST /messages' body): a
 * button, list or cta_url message meets the same limits as on /chat.
 */
export function checkProviderInteractive(value: unknown, ctx: z.RefinementCtx): void {
  const v = obj(value);
  const type = ourInteractiveType(v?.type);
  if (!v || !type) return;
  const header = obj(v.header);
  const ours = readProviderInteractive(type, v);
  const parsed = Interactive.safeParse(ours);
  const issues: { path: PropertyKey[]; message: string }[] = parsed.success ? [] : parsed.error.issues;
  if (parsed.success) {
    checkInteractiveParts(
      type,
      parsed.data,
      {
        addIssue: (i) => {
          if (typeof i !== "string") issues.push({ path: (i.path ?? []) as PropertyKey[], message: i.message ?? "" });
        },
      } as z.RefinementCtx,
      [],
    );
  }
  for (const i of issues) {
    ctx.addIssue({ code: "custom", path: providerPath(i.path, header), message: i.message });
  }
}
