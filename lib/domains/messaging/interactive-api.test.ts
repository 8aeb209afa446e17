// Buttons, lists and links through the real router: every limit at its bound and one past
// it, the window rule, a conversation reply, the provider-shaped routes, and files of
// another account in a media header.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { recordApiAnswers } from "@/test/api-answers";
import { call } from "@/test/factory";
import { jpeg } from "@/test/media-samples";
import { engagedRecipient, messagingCustomer, recipient } from "@/test/messaging-fixtures";

recordApiAnswers();

const sim = () => {
  const s = getSimulator();
  if (!s) throw new Error("tests expect the simulator");
  return s;
};
const x = (n: number, c = "a") => c.repeat(n);
type Obj = Record<string, unknown>;

const buttons = (over: Obj = {}) => ({
  body: "Where is your order?",
  buttons: [
    { id: "track", title: "Track my order" },
    { id: "agent", title: "Talk to a person" },
  ],
  ...over,
});
const list = (over: Obj = {}) => ({
  body: "Pick a topic",
  list: { button: "Topics", sections: [{ rows: [{ id: "r1", title: "Billing" }] }] },
  ...over,
});
const cta = (over: Obj = {}) => ({
  body: "Your receipt",
  ctaUrl: { displayText: "Open receipt", url: "https://example.com/r/1" },
  ...over,
});
const rows = (n: number, prefix = "r") =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, title: `Row ${i}` }));

describe("interactive messages on /chat", () => {
  it("sends each type at every bound as the provider's interactive object, inside the window", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const full = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: {
        to,
        type: "buttons",
        interactive: {
          header: { type: "text", text: x(60) },
          body: x(1024),
          footer: x(60),
          buttons: [0, 1, 2].map((i) => ({ id: x(255) + i, title: x(19) + i })),
        },
      },
    });
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body.data.type).toBe("interactive");
    const stored = await db.message.findFirstOrThrow({ where: { id: full.body.data.messageUid } });
    expect(stored.payload).toMatchObject({
      type: "interactive",
      interactive: {
        type: "button",
        header: { type: "text", text: x(60) },
        body: { text: x(1024) },
        footer: { text: x(60) },
        action: { buttons: [{ type: "reply", reply: { id: `${x(255)}0`, title: `${x(19)}0` } }, {}, {}] },
      },
    });
    const sections = Array.from({ length: 10 }, (_, i) => ({
      title: x(23) + i,
      rows: [{ id: x(199) + i, title: x(24), description: x(72) }],
    }));
    const fullList = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, type: "list", interactive: { body: "Menu", list: { button: x(20), sections } } },
    });
    expect(fullList.status, JSON.stringify(fullList.body)).toBe(200);
    const oneSection = await call("POST", "/api/v2/chat", {
      token: t.globalToken,
      body: { to, type: "list", interactive: list({ list: { button: "Menu", sections: [{ rows: rows(10) }] } }) },
    });
    expect(oneSection.status).toBe(200);
    const link = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, type: "cta_url", interactive: cta({ ctaUrl: { displayText: x(20), url: "https://example.com/x" } }) },
    });
    expect(link.status).toBe(200);
    const sent = await db.message.findFirstOrThrow({ where: { id: link.body.data.messageUid } });
    expect(sent.payload).toMatchObject({
      interactive: { type: "cta_url", action: { name: "cta_url", parameters: { display_text: x(20) } } },
    });
    expect(
      sim()
        .acceptedTo(to)
        .map((m) => m.type),
    ).toEqual(["interactive", "interactive", "interactive", "interactive"]);
  });

  it("sends each type at its lower bounds: one button, a 1-character body and every part at 1, no header or footer", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const one = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to, type: "buttons", interactive: { body: "a", buttons: [{ id: "b", title: "c" }] } },
    });
    expect(one.status, JSON.stringify(one.body)).toBe(200);
    const stored = await db.message.findFirstOrThrow({ where: { id: one.body.data.messageUid } });
    // No footer (nor header) given: none goes out, not an empty one.
    expect((stored.payload as { interactive: unknown }).interactive).toEqual({
      type: "button",
      body: { text: "a" },
      action: { buttons: [{ type: "reply", reply: { id: "b", title: "c" } }] },
    });
    const shortest = await call("POST", "/api/v2/chat", {
      token: t.globalToken,
      body: {
        to,
        type: "list",
        interactive: {
          header: { type: "text", text: "h" },
          body: "a",
          footer: "f",
          list: { button: "M", sections: [{ rows: [{ id: "r", title: "T" }] }] },
        },
      },
    });
    expect(shortest.status, JSON.stringify(shortest.body)).toBe(200);
    const list = await db.message.findFirstOrThrow({ where: { id: shortest.body.data.messageUid } });
    expect((list.payload as { interactive: unknown }).interactive).toEqual({
      type: "list",
      header: { type: "text", text: "h" },
      body: { text: "a" },
      footer: { text: "f" },
      action: { button: "M", sections: [{ rows: [{ id: "r", title: "T" }] }] },
    });
    const link = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: {
        to,
        type: "cta_url",
        interactive: { body: "a", ctaUrl: { displayText: "G", url: "https://example.com" } },
      },
    });
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect(sim().acceptedTo(to)).toHaveLength(3);
  });

  const past: [string, string, Obj][] = [
    ["empty footer", "body.interactive.footer", { type: "buttons", interactive: buttons({ footer: "" }) }],
    [
      "empty header text",
      "body.interactive.header.text",
      { type: "buttons", interactive: buttons({ header: { type: "text", text: "" } }) },
    ],
    [
      "empty button id",
      "body.interactive.buttons.0.id",
      { type: "buttons", interactive: buttons({ buttons: [{ id: "", title: "A" }] }) },
    ],
    [
      "empty button title",
      "body.interactive.buttons.0.title",
      { type: "buttons", interactive: buttons({ buttons: [{ id: "a", title: "" }] }) },
    ],
    [
      "empty list button",
      "body.interactive.list.button",
      { type: "list", interactive: list({ list: { button: "", sections: [{ rows: rows(1) }] } }) },
    ],
    [
      "no section",
      "body.interactive.list.sections",
      { type: "list", interactive: list({ list: { button: "M", sections: [] } }) },
    ],
    [
      "a section without rows",
      "body.interactive.list.sections.0.rows",
      { type: "list", interactive: list({ list: { button: "M", sections: [{ rows: [] }] } }) },
    ],
    [
      "empty row id",
      "body.interactive.list.sections.0.rows.0.id",
      { type: "list", interactive: list({ list: { button: "M", sections: [{ rows: [{ id: "", title: "T" }] }] } }) },
    ],
    [
      "empty row title",
      "body.interactive.list.sections.0.rows.0.title",
      { type: "list", interactive: list({ list: { button: "M", sections: [{ rows: [{ id: "r", title: "" }] }] } }) },
    ],
    [
      "empty display text",
      "body.interactive.ctaUrl.displayText",
      { type: "cta_url", interactive: cta({ ctaUrl: { displayText: "", url: "https://example.com" } }) },
    ],
    ["body 1,025", "body.interactive.body", { type: "buttons", interactive: buttons({ body: x(1025) }) }],
    ["empty body", "body.interactive.body", { type: "buttons", interactive: buttons({ body: "" }) }],
    [
      "header text 61",
      "body.interactive.header.text",
      { type: "buttons", interactive: buttons({ header: { type: "text", text: x(61) } }) },
    ],
    ["footer 61", "body.interactive.footer", { type: "buttons", interactive: buttons({ footer: x(61) }) }],
    [
      "4 buttons",
      "body.interactive.buttons",
      { type: "buttons", interactive: buttons({ buttons: rows(4).map(({ id }) => ({ id, title: id })) }) },
    ],
    ["no button", "body.interactive.buttons", { type: "buttons", interactive: buttons({ buttons: [] }) }],
    [
      "button id 257",
      "body.interactive.buttons.0.id",
      { type: "buttons", interactive: buttons({ buttons: [{ id: x(257), title: "A" }] }) },
    ],
    [
      "button title 21",
      "body.interactive.buttons.1.title",
      {
        type: "buttons",
        interactive: buttons({
          buttons: [
            { id: "a", title: "A" },
            { id: "b", title: x(21) },
          ],
        }),
      },
    ],
    [
      "duplicate button ids",
      "body.interactive.buttons.1.id",
      {
        type: "buttons",
        interactive: buttons({
          buttons: [
            { id: "a", title: "A" },
            { id: "a", title: "B" },
          ],
        }),
      },
    ],
    [
      "list button 21",
      "body.interactive.list.button",
      { type: "list", interactive: list({ list: { button: x(21), sections: [{ rows: rows(1) }] } }) },
    ],
    [
      "11 sections",
      "body.interactive.list.sections",
      {
        type: "list",
        interactive: list({
          list: { button: "M", sections: rows(11).map((r) => ({ title: r.id, rows: [r] })) },
        }),
      },
    ],
    [
      "section title 25",
      "body.interactive.list.sections.0.title",
      {
        type: "list",
        interactive: list({ list: { button: "M", sections: [{ title: x(25), rows: rows(1) }] } }),
      },
    ],
    [
      "untitled section among two",
      "body.interactive.list.sections.1.title",
      {
        type: "list",
        interactive: list({
          list: { button: "M", sections: [{ title: "A", rows: rows(1, "a") }, { rows: rows(1, "b") }] },
        }),
      },
    ],
    [
      "11 rows in one section",
      "body.interactive.list.sections.0.rows",
      { type: "list", interactive: list({ list: { button: "M", sections: [{ rows: rows(11) }] } }) },
    ],
    [
      "11 rows in all",
      "body.interactive.list.sections",
      {
        type: "list",
        interactive: list({
          list: {
            button: "M",
            sections: [
              { title: "A", rows: rows(5, "a") },
              { title: "B", rows: rows(6, "b") },
            ],
          },
        }),
      },
    ],
    [
      "row id 201",
      "body.interactive.list.sections.0.rows.0.id",
      {
        type: "list",
        interactive: list({ list: { button: "M", sections: [{ rows: [{ id: x(201), title: "T" }] }] } }),
      },
    ],
    [
      "row ids repeated across sections",
      "body.interactive.list.sections.1.rows.0.id",
      {
        type: "list",
        interactive: list({
          list: {
            button: "M",
            sections: [
              { title: "A", rows: rows(1) },
              { title: "B", rows: rows(1) },
            ],
          },
        }),
      },
    ],
    [
      "row title 25",
      "body.interactive.list.sections.0.rows.0.title",
      { type: "list", interactive: list({ list: { button: "M", sections: [{ rows: [{ id: "r", title: x(25) }] }] } }) },
    ],
    [
      "row description 73",
      "body.interactive.list.sections.0.rows.0.description",
      {
        type: "list",
        interactive: list({
          list: { button: "M", sections: [{ rows: [{ id: "r", title: "T", description: x(73) }] }] },
        }),
      },
    ],
    [
      "a list's media header",
      "body.interactive.header.type",
      {
        type: "list",
        interactive: list({ header: { type: "image", media: { link: "https://example.com/a.png" } } }),
      },
    ],
    [
      "display text 21",
      "body.interactive.ctaUrl.displayText",
      { type: "cta_url", interactive: cta({ ctaUrl: { displayText: x(21), url: "https://example.com" } }) },
    ],
    [
      "an http link",
      "body.interactive.ctaUrl.url",
      { type: "cta_url", interactive: cta({ ctaUrl: { displayText: "Go", url: "http://example.com" } }) },
    ],
    ["buttons without buttons", "body.interactive.buttons", { type: "buttons", interactive: cta() }],
    ["list without interactive", "body.interactive", { type: "list" }],
    [
      "a header with text and media",
      "body.interactive.header.text",
      {
        type: "cta_url",
        interactive: cta({ header: { type: "image", text: "x", media: { link: "https://example.com/a.png" } } }),
      },
    ],
  ];

  // One account and one open window for every refusal: none of them may send or record anything.
  let refusals: { t: Awaited<ReturnType<typeof messagingCustomer>>; to: string } | undefined;
  it.each(past)("refuses %s before anything is sent, naming the field", async (_name, path, body) => {
    if (!refusals) {
      const t = await messagingCustomer();
      refusals = { t, to: await engagedRecipient(t.sender) };
    }
    const { t, to } = refusals;
    const res = await call("POST", "/api/v3/chat", { token: t.globalToken, body: { to, ...body } });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.details.fields.map((f: { path: string }) => f.path)).toContain(path);
    expect(await db.message.count({ where: { customerId: t.customer.id } })).toBe(0);
    expect(sim().acceptedTo(to)).toHaveLength(0);
  });

  it("applies the window rule as to any session message", async () => {
    const t = await messagingCustomer();
    const res = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: { to: recipient(), type: "buttons", interactive: buttons() },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("CUSTOMER_SERVICE_WINDOW_CLOSED");
  });

  it("sends a header file by mediaId only of the account's own files", async () => {
    const t = await messagingCustomer();
    const other = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(await jpeg())], { type: "image/jpeg" }), "a.jpg");
    const upload = await call("POST", "/api/v3/media", { token: other.globalToken, form });
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const res = await call("POST", "/api/v3/chat", {
      token: t.globalToken,
      body: {
        to,
        type: "buttons",
        interactive: buttons({ header: { type: "image", media: { id: upload.body.data.mediaId } } }),
      },
    });
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBe("MEDIA_NOT_FOUND");
    expect(sim().acceptedTo(to)).toHaveLength(0);
  });
});

describe("interactive replies in a conversation", () => {
  it("sends buttons as a reply and refuses one past a limit", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const conv = await db.conversation.findFirstOrThrow({ where: { senderId: t.sender.id, contactPhoneNumber: to } });
    const ok = await call("POST", `/api/v3/conversations/${conv.id}/messages`, {
      token: t.globalToken,
      body: { message: { type: "buttons", interactive: buttons() } },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const thread = await call("GET", `/api/v3/conversations/${conv.id}/messages`, { token: t.globalToken });
    expect(JSON.stringify(thread.body.data.items)).toContain('"Track my order"');
    const bad = await call("POST", `/api/v3/conversations/${conv.id}/messages`, {
      token: t.globalToken,
      body: {
        message: { type: "list", interactive: list({ list: { button: x(21), sections: [{ rows: rows(1) }] } }) },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields.map((f: { path: string }) => f.path)).toContain(
      "body.message.interactive.list.button",
    );
    // Another account's token sees no such conversation.
    const other = await messagingCustomer();
    const foreign = await call("POST", `/api/v3/conversations/${conv.id}/messages`, {
      token: other.globalToken,
      body: { message: { type: "buttons", interactive: buttons() } },
    });
    expect(foreign.status).toBe(404);
    expect(sim().acceptedTo(to)).toHaveLength(1);
  });
});

describe("interactive messages on the provider-shaped routes", () => {
  const providerButtons = (title: string) => ({
    type: "button",
    body: { text: "Where is your order?" },
    action: { buttons: [{ type: "reply", reply: { id: "track", title } }] },
  });

  it("passes a valid body through and refuses one past a limit in the provider's error shape", async () => {
    const t = await messagingCustomer();
    const to = await engagedRecipient(t.sender);
    const ok = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: { to, type: "interactive", interactive: providerButtons(x(20)) },
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.messages[0].id).toMatch(/^wamid\./);
    const bad = await call("POST", `/api/v2/${t.sender.phoneNumberId}/messages`, {
      token: t.globalToken,
      body: { to, type: "interactive", interactive: providerButtons(x(21)) },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.error_data.error_code).toBe("VALIDATION_FAILED");
    expect(bad.body.error.message).toContain("body.interactive.action.buttons.0.reply.title");
    const link = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: {
        to,
        type: "interactive",
        interactive: {
          type: "cta_url",
          body: { text: "Receipt" },
          action: { name: "cta_url", parameters: { display_text: "Open", url: "http://example.com" } },
        },
      },
    });
    expect(link.status).toBe(400);
    expect(link.body.error.message).toContain("body.interactive.action.parameters.url");
    const rowsPast = await call("POST", "/api/v3/messages", {
      token: t.globalToken,
      body: {
        to,
        type: "interactive",
        interactive: {
          type: "list",
          body: { text: "Menu" },
          action: { button: "Topics", sections: [{ rows: rows(11) }] },
        },
      },
    });
    expect(rowsPast.status).toBe(400);
    expect(rowsPast.body.error.message).toContain("body.interactive.action.sections.0.rows");
    expect(sim().acceptedTo(to)).toHaveLength(1);
  });
});
