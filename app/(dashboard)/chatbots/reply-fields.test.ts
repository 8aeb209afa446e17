// The chatbot editor's reply drafts (docs/chatbots.md "Dashboard"): what the editor builds for
// buttons, a list and a link is a reply the API's schema takes, and a saved one reads back into
// the same fields (a header or footer saved through the API stays; a list of several sections
// is kept as saved).
import { describe, expect, it } from "vitest";
import { ChatbotReplySchema } from "@/lib/domains/chatbots/schemas";
import { emptyReply, replyDraftOf, replyOf } from "./reply-fields";

describe("chatbot reply drafts", () => {
  it("builds a list of one section and a link button the API takes, and reads them back", () => {
    const list = replyOf({
      ...emptyReply(),
      type: "list",
      body: "What are you looking for?",
      listButton: "Browse",
      sectionTitle: "",
      rows: [
        { id: "trainers", title: "Trainers", description: "Running and walking" },
        { id: "boots", title: "Boots", description: "" },
      ],
    });
    expect(ChatbotReplySchema.parse(list)).toEqual({
      type: "list",
      interactive: {
        body: "What are you looking for?",
        list: {
          button: "Browse",
          sections: [
            {
              rows: [
                { id: "trainers", title: "Trainers", description: "Running and walking" },
                { id: "boots", title: "Boots" },
              ],
            },
          ],
        },
      },
    });
    expect(replyOf(replyDraftOf(list))).toEqual(list);

    const link = replyOf({
      ...emptyReply(),
      type: "cta_url",
      body: "Follow your parcel",
      ctaText: "Track it",
      ctaUrl: "https://example.com/t",
    });
    expect(ChatbotReplySchema.parse(link)).toEqual({
      type: "cta_url",
      interactive: { body: "Follow your parcel", ctaUrl: { displayText: "Track it", url: "https://example.com/t" } },
    });
    expect(replyDraftOf(link)).toMatchObject({ type: "cta_url", ctaText: "Track it", ctaUrl: "https://example.com/t" });
    // An http link is refused by the same schema, naming the field.
    const http = ChatbotReplySchema.safeParse(replyOf({ ...replyDraftOf(link), ctaUrl: "http://example.com/t" }));
    expect(http.success ? [] : http.error.issues.map((i) => i.path.join("."))).toEqual(["interactive.ctaUrl.url"]);
  });

  it("keeps a saved header and footer, and a list of several sections as saved", () => {
    const saved = {
      type: "list",
      interactive: {
        header: { type: "text", text: "Menu" },
        body: "Pick one",
        footer: "Acme",
        list: { button: "Open", sections: [{ title: "A", rows: [{ id: "a", title: "A1" }] }] },
      },
    };
    const draft = replyDraftOf(saved);
    expect(draft).toMatchObject({ type: "list", sectionTitle: "A", listButton: "Open" });
    expect(replyOf({ ...draft, body: "Pick one, please" })).toEqual({
      type: "list",
      interactive: { ...saved.interactive, body: "Pick one, please" },
    });
    const several = {
      type: "list",
      interactive: {
        body: "Pick",
        list: {
          button: "Open",
          sections: [
            { title: "A", rows: [{ id: "a", title: "A1" }] },
            { title: "B", rows: [{ id: "b", title: "B1" }] },
          ],
        },
      },
    };
    expect(replyDraftOf(several).type).toBe("kept");
    expect(replyOf(replyDraftOf(several))).toEqual(several);
  });
});
