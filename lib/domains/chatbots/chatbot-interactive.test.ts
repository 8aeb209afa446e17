// Chatbot menus (docs/chatbots.md "Buttons, lists and reply ids"): a bot replies with buttons,
// a list or a link (the interactive object of /chat, its limits checked at save), and a rule
// matches a tap by its reply id. Through the real router, callback endpoint, processor and
// worker, to the provider simulator.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { processPendingCallbacks } from "@/lib/ingest/process-batch";
import { recordApiAnswers } from "@/test/api-answers";
import { postProvider } from "@/test/events-helpers";
import { call, uniquePhone } from "@/test/factory";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { sendDueReplies } from "./worker";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
let a: Customer;
let b: Customer;
let botUid: string;

const text = (body: string) => ({ type: "text", text: body });
const MENU = {
  type: "buttons",
  interactive: {
    body: "How can we help?",
    footer: "Tap a button",
    buttons: [
      { id: "track", title: "Track my order" },
      { id: "agent", title: "Talk to a person" },
    ],
  },
};
const BOT = {
  name: "Menu desk",
  status: "ACTIVE",
  rules: [
    { match: { type: "keyword", value: "menu" }, reply: MENU },
    { match: { type: "reply_id", value: "track" }, reply: text("Your order ships today") },
    { match: { type: "reply_id", value: "agent" }, reply: text("A person will answer"), handoff: true },
    { match: { type: "keyword", value: "Sizes" }, reply: text("S, M and L") },
    { match: { type: "reply_id", value: "size_m" }, reply: text("M it is") },
  ],
  fallbackReply: text("Type menu"),
};

function inbound(to: Customer["sender"], from: string, message: Record<string, unknown>) {
  const id = `wamid.menu.${randomBytes(8).toString("hex")}`;
  const raw = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: to.wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550001234", phone_number_id: to.phoneNumberId },
              contacts: [{ profile: { name: "Ana" }, wa_id: from.replace("+", "") }],
              messages: [
                { from: from.replace("+", ""), id, timestamp: String(Math.floor(Date.now() / 1000)), ...message },
              ],
            },
          },
        ],
      },
    ],
  });
  return { id, raw };
}

async function writes(from: string, message: Record<string, unknown>, sender = a.sender) {
  const msg = inbound(sender, from, message);
  expect((await postProvider(msg.raw)).status).toBe(200);
  await processPendingCallbacks();
  return msg;
}
const says = (from: string, body: string, sender = a.sender) => writes(from, { type: "text", text: { body } }, sender);
const taps = (from: string, id: string, title: string, context?: string, kind = "button_reply") =>
  writes(from, {
    type: "interactive",
    interactive: { type: kind, [kind]: { id, title } },
    ...(context ? { context: { from: "15550001234", id: context } } : {}),
  });

const sendAll = (customer = a) => sendDueReplies({ customerIds: [customer.customer.id], retryBaseMs: 10 });
const toProvider = (contact: string) => getSimulator()?.acceptedTo(contact) ?? [];
const outbox = (contact: string, customer = a) =>
  db.chatbotReply.findMany({
    where: { customerId: customer.customer.id, contactPhoneNumber: contact },
    orderBy: { createdAt: "asc" },
  });

const create = (token: string, chatbot: unknown) => call("POST", "/api/v3/chatbots", { token, body: { chatbot } });
const fieldsOf = (res: { body: { details?: { fields?: { path: string }[] } } }) =>
  (res.body.details?.fields ?? []).map((f) => f.path);

beforeAll(async () => {
  expect(getSimulator()).toBeDefined();
  [a, b] = await Promise.all([messagingCustomer(), messagingCustomer()]);
  const res = await create(a.globalToken, BOT);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  botUid = res.body.data.chatbotUid;
});

describe("a bot offers buttons and branches on the tapped id", () => {
  it("sends the menu as the provider's interactive buttons, through the normal send path", async () => {
    const contact = uniquePhone();
    await says(contact, "menu");
    const [row] = await outbox(contact);
    expect(row).toMatchObject({ matchedRule: 0, reply: MENU });
    await sendAll();
    expect(toProvider(contact).map((m) => m.type)).toEqual(["interactive"]);
    // What went to the provider, as the message stores it.
    const message = await db.message.findFirstOrThrow({ where: { recipient: contact, sendRoute: "chatbot" } });
    expect(message).toMatchObject({ type: "interactive", status: "accepted" });
    expect(message.payload).toMatchObject({
      type: "interactive",
      interactive: {
        type: "button",
        body: { text: "How can we help?" },
        footer: { text: "Tap a button" },
        action: {
          buttons: [
            { type: "reply", reply: { id: "track", title: "Track my order" } },
            { type: "reply", reply: { id: "agent", title: "Talk to a person" } },
          ],
        },
      },
    });
  });

  it("a tap with a reply id triggers its rule exactly once, even when the callback is replayed", async () => {
    const contact = uniquePhone();
    await says(contact, "menu");
    await sendAll();
    const menu = await db.message.findFirstOrThrow({ where: { recipient: contact, sendRoute: "chatbot" } });
    const tap = await taps(contact, "track", "Track my order", menu.providerMessageId ?? undefined);
    // The provider re-sends the same callback, twice: no second outbox row, no second reply.
    for (let i = 0; i < 2; i++) {
      expect((await postProvider(tap.raw)).status).toBe(200);
      await processPendingCallbacks();
    }
    const rows = (await outbox(contact)).filter((r) => r.inboundProviderMessageId === tap.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ matchedRule: 1, reply: text("Your order ships today") });
    await sendAll();
    await sendAll();
    expect(toProvider(contact).map((m) => m.type)).toEqual(["interactive", "text"]);
    const answer = await db.message.findFirstOrThrow({
      where: { recipient: contact, sendRoute: "chatbot", type: "text" },
    });
    expect(answer.payload).toMatchObject({ text: { body: "Your order ships today" } });
  });

  it("a list pick matches by its row id; a reply_id rule with hand-off hands off", async () => {
    const contact = uniquePhone();
    await taps(contact, "size_m", "Medium", undefined, "list_reply");
    expect((await outbox(contact)).map((r) => r.matchedRule)).toEqual([4]);
    const other = uniquePhone();
    await taps(other, "agent", "Talk to a person");
    expect(await outbox(other)).toMatchObject([{ matchedRule: 2, handoff: true }]);
  });

  it("a title alone never fires a reply_id rule; title matching stays for keyword rules", async () => {
    // A text equal to the id, a tap whose title is the id but whose id is not.
    const typed = uniquePhone();
    await says(typed, "track");
    expect((await outbox(typed)).map((r) => r.matchedRule)).toEqual([null]);
    const wrongId = uniquePhone();
    await taps(wrongId, "other", "track");
    expect((await outbox(wrongId)).map((r) => r.matchedRule)).toEqual([null]);
    // The id is exact: a different case is another id.
    const upper = uniquePhone();
    await taps(upper, "TRACK", "Track my order");
    expect((await outbox(upper)).map((r) => r.matchedRule)).toEqual([null]);
    // A keyword rule still matches a tap by its title, as before.
    const titled = uniquePhone();
    await taps(titled, "sizes_button", "sizes");
    expect((await outbox(titled)).map((r) => r.matchedRule)).toEqual([3]);
  });

  it("the dry run takes a replyId", async () => {
    const dry = (body: Record<string, unknown>) =>
      call("POST", `/api/v3/chatbots/${botUid}/test`, { token: a.globalToken, body });
    const tapped = await dry({ text: "Track my order", replyId: "track" });
    expect(tapped.status, JSON.stringify(tapped.body)).toBe(200);
    expect(tapped.body.data).toMatchObject({ matchedRule: 1, reply: text("Your order ships today") });
    expect((await dry({ text: "track" })).body.data.matchedRule).toBeNull();
    const menu = await dry({ text: "menu" });
    expect(menu.body.data).toMatchObject({ matchedRule: 0, reply: MENU });
    const long = await dry({ text: "x", replyId: "i".repeat(257) });
    expect(long.status).toBe(400);
    expect(fieldsOf(long)).toEqual(["body.replyId"]);
  });

  it("an interactive reply is a session message: refused when the window is closed", async () => {
    // A row as the runner writes it, for a contact who never wrote (no window).
    const contact = uniquePhone();
    const bot = await db.chatbot.findUniqueOrThrow({ where: { id: botUid } });
    await db.chatbotReply.create({
      data: {
        id: `cbr_menu${randomBytes(8).toString("hex")}`,
        customerId: a.customer.id,
        senderId: a.sender.id,
        chatbotId: bot.id,
        inboundProviderMessageId: `wamid.none.${randomBytes(8).toString("hex")}`,
        contactPhoneNumber: contact,
        matchedRule: 0,
        reply: MENU,
      },
    });
    await sendAll();
    const [row] = await outbox(contact);
    expect(row?.status).toBe("FAILED");
    expect(row?.lastError).toMatch(/CUSTOMER_SERVICE_WINDOW_CLOSED/);
    expect(toProvider(contact)).toHaveLength(0);
  });
});

describe("limits checked at save, naming the field", () => {
  const rule = (reply: unknown, match: unknown = { type: "keyword", value: "menu" }) => ({
    name: "Limits",
    rules: [{ match, reply }],
  });
  const buttons = (n: number, over: Partial<{ id: string; title: string }> = {}) =>
    Array.from({ length: n }, (_, i) => ({ id: `b${i}`, title: `Button ${i}`, ...over }));
  const rows = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `r${i}`, title: `Row ${i}` }));
  const R = "body.chatbot.rules.0.reply.interactive";

  const cases: { name: string; at: unknown; past: unknown; field: string }[] = [
    {
      name: "3 buttons",
      at: { type: "buttons", interactive: { body: "b", buttons: buttons(3) } },
      past: { type: "buttons", interactive: { body: "b", buttons: buttons(4) } },
      field: `${R}.buttons`,
    },
    {
      name: "a button title of 20",
      at: { type: "buttons", interactive: { body: "b", buttons: [{ id: "x", title: "t".repeat(20) }] } },
      past: { type: "buttons", interactive: { body: "b", buttons: [{ id: "x", title: "t".repeat(21) }] } },
      field: `${R}.buttons.0.title`,
    },
    {
      name: "a button id of 256",
      at: { type: "buttons", interactive: { body: "b", buttons: [{ id: "i".repeat(256), title: "t" }] } },
      past: { type: "buttons", interactive: { body: "b", buttons: [{ id: "i".repeat(257), title: "t" }] } },
      field: `${R}.buttons.0.id`,
    },
    {
      name: "a body of 1,024",
      at: { type: "buttons", interactive: { body: "b".repeat(1024), buttons: buttons(1) } },
      past: { type: "buttons", interactive: { body: "b".repeat(1025), buttons: buttons(1) } },
      field: `${R}.body`,
    },
    {
      name: "10 list rows",
      at: { type: "list", interactive: { body: "b", list: { button: "Pick", sections: [{ rows: rows(10) }] } } },
      past: { type: "list", interactive: { body: "b", list: { button: "Pick", sections: [{ rows: rows(11) }] } } },
      field: `${R}.list.sections.0.rows`,
    },
    {
      name: "a CTA display text of 20",
      at: {
        type: "cta_url",
        interactive: { body: "b", ctaUrl: { displayText: "d".repeat(20), url: "https://x.test" } },
      },
      past: {
        type: "cta_url",
        interactive: { body: "b", ctaUrl: { displayText: "d".repeat(21), url: "https://x.test" } },
      },
      field: `${R}.ctaUrl.displayText`,
    },
  ];

  for (const c of cases) {
    it(`${c.name} is accepted, one past is VALIDATION_FAILED naming the field`, async () => {
      const ok = await create(a.globalToken, rule(c.at));
      expect(ok.status, JSON.stringify(ok.body)).toBe(201);
      expect(ok.body.data.rules[0].reply).toEqual(c.at);
      const refused = await create(a.globalToken, rule(c.past));
      expect(refused.status).toBe(400);
      expect(refused.body.error_code).toBe("VALIDATION_FAILED");
      expect(fieldsOf(refused)).toEqual([c.field]);
    });
  }

  it("a reply_id of 256 characters is accepted, 257 refused; empty and repeated ids are refused", async () => {
    const ok = await create(a.globalToken, rule(text("hi"), { type: "reply_id", value: "i".repeat(256) }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const long = await create(a.globalToken, rule(text("hi"), { type: "reply_id", value: "i".repeat(257) }));
    expect(long.status).toBe(400);
    expect(fieldsOf(long)).toEqual(["body.chatbot.rules.0.match.value"]);
    const empty = await create(a.globalToken, rule(text("hi"), { type: "reply_id", value: " " }));
    expect(fieldsOf(empty)).toEqual(["body.chatbot.rules.0.match.value"]);
    const twice = await create(a.globalToken, {
      name: "Twice",
      rules: [
        { match: { type: "reply_id", value: "yes" }, reply: text("1") },
        { match: { type: "reply_id", value: "yes" }, reply: text("2") },
      ],
    });
    expect(twice.status).toBe(400);
    expect(fieldsOf(twice)).toEqual(["body.chatbot.rules.1.match.value"]);
  });

  it("a part of another type, an http link, and the fallback and away replies are checked the same way", async () => {
    const wrongPart = await create(
      a.globalToken,
      rule({ type: "buttons", interactive: { body: "b", ctaUrl: { displayText: "Go", url: "https://x.test" } } }),
    );
    expect(fieldsOf(wrongPart)).toEqual([`${R}.buttons`, `${R}.ctaUrl`]);
    const http = await create(
      a.globalToken,
      rule({ type: "cta_url", interactive: { body: "b", ctaUrl: { displayText: "Go", url: "http://x.test" } } }),
    );
    expect(fieldsOf(http)).toEqual([`${R}.ctaUrl.url`]);
    const fallback = await create(a.globalToken, {
      name: "Fallback",
      fallbackReply: { type: "buttons", interactive: { body: "b", buttons: buttons(4) } },
    });
    expect(fieldsOf(fallback)).toEqual(["body.chatbot.fallbackReply.interactive.buttons"]);
  });
});

describe("isolation between accounts", () => {
  it("another account's bot never answers, and cannot read, test or change this one", async () => {
    const theirs = await create(b.globalToken, { ...BOT, name: "B desk" });
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201);
    const contact = uniquePhone();
    await taps(contact, "track", "Track my order");
    expect(await outbox(contact)).toHaveLength(1);
    expect(await outbox(contact, b)).toHaveLength(0);
    // B's bot answers B's sender's taps only.
    const toB = uniquePhone();
    await writes(
      toB,
      { type: "interactive", interactive: { type: "button_reply", button_reply: { id: "track", title: "T" } } },
      b.sender,
    );
    expect(await outbox(toB, b)).toMatchObject([{ matchedRule: 1 }]);
    expect(await outbox(toB)).toHaveLength(0);
    for (const [method, path, body] of [
      ["GET", `/api/v3/chatbots/${botUid}`, undefined],
      ["POST", `/api/v3/chatbots/${botUid}/test`, { text: "x", replyId: "track" }],
      ["POST", `/api/v3/chatbots/${botUid}`, { chatbot: { rules: [] } }],
    ] as const) {
      const res = await call(method, path, { token: b.globalToken, body });
      expect(res.status, path).toBe(404);
      expect(res.body.error_code).toBe("CHATBOT_NOT_FOUND");
    }
    const mine = await call("GET", `/api/v3/chatbots/${botUid}`, { token: a.globalToken });
    expect(mine.body.data.rules).toEqual(BOT.rules);
  });
});

describe("docs/chatbots.md example", () => {
  it("the example of Buttons, lists and reply ids creates a bot that branches on the tap", async () => {
    const doc = fs.readFileSync(path.join(process.cwd(), "docs/chatbots.md"), "utf8");
    const start = doc.indexOf("\n## Buttons, lists and reply ids\n");
    expect(start).toBeGreaterThan(-1);
    const section = doc.slice(start, doc.indexOf("\n## ", start + 1));
    const examples = [...section.matchAll(/curl -s "\$BASE(\/api\/v3\/[^"]+)"[\s\S]*?-d '([\s\S]*?)'/g)];
    expect(examples).toHaveLength(1);
    const [, route = "", body = ""] = examples[0] ?? [];
    // A customer of its own: the example's bot is ACTIVE on the default sender.
    const c = await messagingCustomer();
    const res = await call("POST", route, { token: c.globalToken, body: JSON.parse(body) });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const contact = uniquePhone();
    await writes(
      contact,
      {
        type: "interactive",
        interactive: { type: "button_reply", button_reply: { id: "track", title: "Track my order" } },
      },
      c.sender,
    );
    expect(await outbox(contact, c)).toMatchObject([{ matchedRule: 1, reply: text("Your order ships today") }]);
    const dry = await call("POST", `/api/v3/chatbots/${res.body.data.chatbotUid}/test`, {
      token: c.globalToken,
      body: { text: "Track my order", replyId: "track" },
    });
    expect(dry.body.data).toMatchObject({ matchedRule: 1 });
  });
});
