// Interactive session messages (docs/messaging.md "Buttons, lists and links"): reply buttons,
// a list menu and a call-to-action link. One schema holds the provider's limits; /chat and a
// conversation reply send it in our camelCase shape, and the provider-shaped routes
// (POST /messages) are read into the same shape and checked by the same schema, so a body
// the provider would refuse is refused here before anything is sent or billed.
import { z } from "zod";
import { INTERACTIVE_LIMITS, InteractiveButtons } from "@/lib/domains/conversations/interactive-buttons";
import { INTERACTIVE_TYPES, type InteractiveType } from "@/lib/domains/conversations/interactive-read";

const L = INTERACTIVE_LIMITS;

export { INTERACTIVE_LIMITS, INTERACTIVE_TYPES, type InteractiveType };

/** The part of `interactive` each type needs. */
const PART_OF = { buttons: "buttons", list: "list", cta_url: "ctaUrl" } as const;

const Https = z.url({ protocol: /^https$/, error: "must be an https URL" }).max(L.ctaUrl);
const HEADER_MEDIA = ["image", "video", "document"] as const;

export const InteractiveHeader = z
  .object({
    type: z.enum(["text", ...HEADER_MEDIA]),
    text: z.string().min(1).max(L.headerText).optional().describe("type text"),
    media: z
      .object({
        id: z.string().min(1).max(64).optional().describe("A mediaId (POST /media); the file must be ready"),
        link: Https.optional().describe("A public https URL the provider fetches"),
      })
      .optional()
      .describe("types image, video, document: {id} or {link}"),
  })
  .superRefine((h, ctx) => {
    if (h.type === "text") {
      if (h.text === undefined) ctx.addIssue({ code: "custom", path: ["text"], message: "text is required" });
      if (h.media) ctx.addIssue({ code: "custom", path: ["media"], message: "a text header has no media" });
      return;
    }
    if (!h.media || (h.media.id === undefined) === (h.media.link === undefined))
      ctx.addIssue({ code: "custom", path: ["media"], message: "media needs id or link (exactly one)" });
    if (h.text !== undefined) ctx.addIssue({ code: "custom", path: ["text"], message: "a media header has no text" });
  })
  .meta({
    id: "InteractiveHeader",
    examples: [
      { type: "text", text: "Order 1042" },
      { type: "image", media: { link: "https://example.com/receipts/1042.png" } },
    ],
  });

const ListRow = z.object({
  id: z.string().min(1).max(L.rowId).describe("Unique across the list; comes back in the pick's reply.id"),
  title: z.string().min(1).max(L.rowTitle),
  description: z.string().max(L.rowDescription).optional(),
});

export const InteractiveList = z
  .object({
    button: z.string().min(1).max(L.listButton).describe("The label of the button that opens the list"),
    sections: z
      .array(
        z.object({
          title: z.string().min(1).max(L.sectionTitle).optional().describe("Required when there are several"),
          rows: z.array(ListRow).min(1).max(L.rows),
        }),
      )
      .min(1)
      .max(L.sections),
  })
  .superRefine((list, ctx) => {
    const several = list.sections.length > 1;
    let rows = 0;
    const seen = new Set<string>();
    list.sections.forEach((s, i) => {
      if (several && s.title === undefined)
        ctx.addIssue({ code: "custom", path: ["sections", i, "title"], message: "required with several sections" });
      s.rows.forEach((r, j) => {
        rows++;
        if (seen.has(r.id))
          ctx.addIssue({ code: "custom", path: ["sections", i, "rows", j, "id"], message: "must be unique" });
        seen.add(r.id);
      });
    });
    if (rows > L.rows)
      ctx.addIssue({ code: "custom", path: ["sections"], message: `at most ${L.rows} rows in all sections` });
  })
  .meta({
    id: "InteractiveList",
    examples: [
      {
        button: "Topics",
        sections: [
          {
            title: "Orders",
            rows: [
              { id: "track", title: "Track my order", description: "Where your parcel is now" },
              { id: "return", title: "Return an item" },
            ],
          },
          { title: "Account", rows: [{ id: "billing", title: "Billing", description: "Invoices and refunds" }] },
        ],
      },
    ],
  });

export const InteractiveCtaUrl = z.object({ displayText: z.string().min(1).max(L.ctaDisplayText), url: Https }).meta({
  id: "InteractiveCtaUrl",
  examples: [{ displayText: "Open receipt", url: "https://example.com/receipts/1042" }],
});

/** The `interactive` object of a send: body, optional header and footer, and the part of its type. */
export const Interactive = z
  .object({
    header: InteractiveHeader.optional(),
    body: z.string().min(1).max(L.body),
    footer: z.string().min(1).max(L.footer).optional(),
    buttons: InteractiveButtons.optional().describe("type buttons: 1-3 reply buttons"),
    list: InteractiveList.optional().describe("type list"),
    ctaUrl: InteractiveCtaUrl.optional().describe("type cta_url"),
  })
  .meta({
    id: "Interactive",
    examples: [
      {
        body: "Where is your order?",
        footer: "Reply with a button",
        buttons: [
          { id: "track", title: "Track my order" },
          { id: "agent", title: "Talk to a person" },
        ],
      },
    ],
  });
export type InteractiveInput = z.infer<typeof Interactive>;

/** The rule between a send's type and its `interactive` object: the type's part is there, no other. */
export function checkInteractiveParts(
  type: string,
  interactive: InteractiveInput | undefined,
  ctx: z.RefinementCtx,
  at: (string | number)[],
): void {
  if (!(INTERACTIVE_TYPES as readonly string[]).includes(type)) {
    if (interactive) ctx.addIssue({ code: "custom", path: at, message: "interactive is for buttons, list, cta_url" });
    return;
  }
  if (!interactive) {
    ctx.addIssue({ code: "custom", path: at, message: `interactive is required for type ${type}` });
    return;
  }
  const own = PART_OF[type as InteractiveType];
  for (const part of Object.values(PART_OF)) {
    const present = interactive[part] !== undefined;
    if (part === own && !present)
      ctx.addIssue({ code: "custom", path: [...at, part], message: `${part} is required for type ${type}` });
    if (part !== own && present)
      ctx.addIssue({ code: "custom", path: [...at, part], message: `${part} is not part of type ${type}` });
  }
  if (type === "list" && interactive.header && interactive.header.type !== "text")
    ctx.addIssue({ code: "custom", path: [...at, "header", "type"], message: "a list's header is text only" });
}
