// Chatbots through the real router (docs/chatbots.md): CRUD, validation naming the field,
// one ACTIVE bot per sender, the dry run, and tenant and sender isolation of every route.
import { beforeAll, describe, expect, it } from "vitest";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";

// Every answer is checked against the OpenAPI document and counts toward its coverage.
recordApiAnswers();

const PUBLIC_FIELDS = [
  "businessHours",
  "chatbotUid",
  "createdAt",
  "fallbackReply",
  "name",
  "phoneNumberId",
  "rules",
  "senderId",
  "status",
  "uid",
  "updatedAt",
].sort();

const text = (t: string) => ({ type: "text", text: t });
const valid = (over: Record<string, unknown> = {}) => ({
  name: "Front desk",
  rules: [
    { match: { type: "keyword", value: "hours" }, reply: text("We are open 9-17") },
    { match: { type: "keyword", value: "agent" }, reply: text("A person will answer shortly"), handoff: true },
    {
      match: { type: "regex", value: "order\\s*#?\\d+" },
      reply: { type: "template", template: { name: "order_status", language: "en" } },
    },
  ],
  fallbackReply: text("Type hours, or agent for a person"),
  ...over,
});

const create = (token: string, chatbot: unknown, extra: Record<string, unknown> = {}, version = "v3") =>
  call("POST", `/api/${version}/chatbots`, { token, body: { chatbot, ...extra } });
const update = (token: string, uid: string, chatbot: unknown, extra: Record<string, unknown> = {}) =>
  call("POST", `/api/v3/chatbots/${uid}`, { token, body: { chatbot, ...extra } });
const dryRun = (token: string, uid: string, t: string, extra: Record<string, unknown> = {}) =>
  call("POST", `/api/v3/chatbots/${uid}/test`, { token, body: { text: t, ...extra } });

const fieldsOf = (res: { body: { details?: { fields?: { path: string }[] } } }) =>
  (res.body.details?.fields ?? []).map((f) => f.path);

let a: TestCustomer;
let b: TestCustomer;
beforeAll(async () => {
  [a, b] = await Promise.all([createTestCustomer(), createTestCustomer()]);
});

describe("create and read", () => {
  it("creates INACTIVE on the default sender, with exactly the public fields, on v2 and v3", async () => {
    for (const version of ["v2", "v3"]) {
      const res = await create(a.globalToken, valid(), {}, version);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const bot = res.body.data;
      expect(Object.keys(bot).sort()).toEqual(PUBLIC_FIELDS);
      expect(bot).toMatchObject({
        status: "INACTIVE",
        senderId: a.sender.phoneNumber,
        phoneNumberId: a.sender.phoneNumberId,
        businessHours: null,
      });
      expect(bot.uid).toBe(bot.chatbotUid);
      expect(bot.rules).toEqual(valid().rules);
      const read = await call("GET", `/api/${version}/chatbots/${bot.chatbotUid}`, { token: a.globalToken });
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(bot);
    }
  });

  it("creates on an explicit sender, and a number-scoped token on its own sender only", async () => {
    const other = await create(a.globalToken, valid(), { senderId: a.otherSender.phoneNumber });
    expect(other.body.data.senderId).toBe(a.otherSender.phoneNumber);
    const scoped = await create(a.scopedToken, valid());
    expect(scoped.body.data.senderId).toBe(a.sender.phoneNumber);
    const refused = await create(a.scopedToken, valid(), { senderId: a.otherSender.phoneNumber });
    expect(refused.status).toBe(403);
    expect(refused.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
  });

  it("keeps business hours and a template fallback as sent", async () => {
    const businessHours = {
      timezone: "Europe/Berlin",
      days: [
        { day: 1, open: "09:00", close: "17:30" },
        { day: 5, open: "22:00", close: "02:00" },
      ],
      awayReply: text("We are closed"),
    };
    const fallbackReply = { type: "template", template: { name: "menu", language: "en_US" } };
    const res = await create(a.globalToken, valid({ businessHours, fallbackReply }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ businessHours, fallbackReply });
  });
});

describe("validation names the bad field", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      "an invalid regex",
      valid({ rules: [{ match: { type: "regex", value: "(a" }, reply: text("x") }] }),
      "body.chatbot.rules.0.match.value",
    ],
    [
      "a lookahead (no linear-time engine runs it)",
      valid({ rules: [{ match: { type: "regex", value: "(?=a)a" }, reply: text("x") }] }),
      "body.chatbot.rules.0.match.value",
    ],
    [
      "a keyword without value",
      valid({ rules: [{ match: { type: "keyword" }, reply: text("x") }] }),
      "body.chatbot.rules.0.match.value",
    ],
    [
      "an unknown match type",
      valid({ rules: [{ match: { type: "fuzzy", value: "x" }, reply: text("x") }] }),
      "body.chatbot.rules.0.match.type",
    ],
    [
      "a rule after an any rule",
      valid({
        rules: [
          { match: { type: "any" }, reply: text("x") },
          { match: { type: "keyword", value: "y" }, reply: text("y") },
        ],
      }),
      "body.chatbot.rules.1.match.type",
    ],
    [
      "a repeated keyword",
      valid({
        rules: [
          { match: { type: "keyword", value: "Hi" }, reply: text("x") },
          { match: { type: "keyword", value: "hi " }, reply: text("y") },
        ],
      }),
      "body.chatbot.rules.1.match.value",
    ],
    [
      "too many rules",
      valid({
        rules: Array.from({ length: 51 }, (_, i) => ({ match: { type: "keyword", value: `k${i}` }, reply: text("x") })),
      }),
      "body.chatbot.rules",
    ],
    [
      "an overlong value",
      valid({ rules: [{ match: { type: "contains", value: "x".repeat(501) }, reply: text("x") }] }),
      "body.chatbot.rules.0.match.value",
    ],
    [
      "an empty reply text",
      valid({ rules: [{ match: { type: "any" }, reply: text("  ") }] }),
      "body.chatbot.rules.0.reply.text",
    ],
    [
      "a template without language",
      valid({ rules: [{ match: { type: "any" }, reply: { type: "template", template: { name: "welcome" } } }] }),
      "body.chatbot.rules.0.reply.template.language",
    ],
    [
      "an unknown timezone",
      valid({
        businessHours: {
          timezone: "Mars/Base",
          days: [{ day: 1, open: "09:00", close: "17:00" }],
          awayReply: text("z"),
        },
      }),
      "body.chatbot.businessHours.timezone",
    ],
    [
      "bad hours",
      valid({
        businessHours: { timezone: "UTC", days: [{ day: 1, open: "9am", close: "17:00" }], awayReply: text("z") },
      }),
      "body.chatbot.businessHours.days.0.open",
    ],
    [
      "a day out of range",
      valid({
        businessHours: { timezone: "UTC", days: [{ day: 7, open: "09:00", close: "17:00" }], awayReply: text("z") },
      }),
      "body.chatbot.businessHours.days.0.day",
    ],
    [
      "an empty window",
      valid({
        businessHours: { timezone: "UTC", days: [{ day: 1, open: "09:00", close: "09:00" }], awayReply: text("z") },
      }),
      "body.chatbot.businessHours.days.0.close",
    ],
    ["an unknown field", valid({ greeting: "hi" }), "body.chatbot"],
  ];

  it.each(cases)("refuses %s", async (_what, chatbot, path) => {
    const res = await create(a.globalToken, chatbot);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(fieldsOf(res)).toContain(path);
  });

  it("writes nothing when refused", async () => {
    const before = await call("GET", "/api/v3/chatbots", { token: a.globalToken });
    await create(a.globalToken, valid({ rules: [{ match: { type: "regex", value: "(" }, reply: text("x") }] }));
    const after = await call("GET", "/api/v3/chatbots", { token: a.globalToken });
    expect(after.body.data.pagination.total).toBe(before.body.data.pagination.total);
  });

  it("an update needs at least one field", async () => {
    const uid = (await create(a.globalToken, valid())).body.data.chatbotUid;
    const res = await update(a.globalToken, uid, {});
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.message).toMatch(/At least one chatbot field/);
  });
});

describe("list", () => {
  let c: TestCustomer;
  beforeAll(async () => {
    c = await createTestCustomer();
  });

  it("paginates, filters by sender and status, and lists all senders for a global token", async () => {
    const first = (await create(c.globalToken, valid({ name: "one" }))).body.data.chatbotUid;
    const second = (await create(c.globalToken, valid({ name: "two" }), { senderId: c.otherSender.phoneNumber })).body
      .data.chatbotUid;
    const third = (await create(c.globalToken, valid({ name: "three", status: "ACTIVE" }))).body.data.chatbotUid;
    const uids = (res: { body: { data: { chatbots: { chatbotUid: string }[] } } }) =>
      res.body.data.chatbots.map((x) => x.chatbotUid);

    const all = await call("GET", "/api/v2/chatbots", { token: c.globalToken });
    expect(all.status).toBe(200);
    expect(all.body.data).toMatchObject({ scope: "user", senderId: null });
    expect(uids(all)).toEqual([third, second, first]);
    expect(all.body.data.items).toEqual(all.body.data.chatbots);
    expect(all.body.data.pagination).toEqual({ page: 1, limit: 50, total: 3, totalPages: 1, count: 3, hasMore: false });

    const paged = await call("GET", "/api/v3/chatbots", { token: c.globalToken, query: { page: 2, limit: 2 } });
    expect(uids(paged)).toEqual([first]);
    expect(paged.body.data.pagination).toEqual({
      page: 2,
      limit: 2,
      total: 3,
      totalPages: 2,
      count: 1,
      hasMore: false,
    });
    const clamped = await call("GET", "/api/v3/chatbots", { token: c.globalToken, query: { limit: 1000 } });
    expect(clamped.body.data.pagination.limit).toBe(100);

    const bySender = await call("GET", "/api/v3/chatbots", {
      token: c.globalToken,
      query: { senderId: c.sender.phoneNumber },
    });
    expect(bySender.body.data).toMatchObject({ scope: "sender", senderId: c.sender.phoneNumber });
    expect(uids(bySender)).toEqual([third, first]);
    const active = await call("GET", "/api/v3/chatbots", { token: c.globalToken, query: { status: "ACTIVE" } });
    expect(uids(active)).toEqual([third]);
    const scoped = await call("GET", "/api/v3/chatbots", { token: c.scopedToken });
    expect(uids(scoped)).toEqual([third, first]);

    const bad = await call("GET", "/api/v3/chatbots", { token: c.globalToken, query: { status: "ON" } });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad)).toContain("query.status");
  });
});

describe("one ACTIVE chatbot per sender", () => {
  it("activating a second is VALIDATION_FAILED naming the active one; deactivating frees the sender", async () => {
    const c = await createTestCustomer();
    const one = (await create(c.globalToken, valid({ name: "Day bot" }))).body.data.chatbotUid;
    const two = (await create(c.globalToken, valid({ name: "Night bot" }))).body.data.chatbotUid;
    expect((await update(c.globalToken, one, { status: "ACTIVE" })).body.data.status).toBe("ACTIVE");
    // Updating the active bot itself is fine.
    expect((await update(c.globalToken, one, { status: "ACTIVE", name: "Day bot 2" })).status).toBe(200);

    const refused = await update(c.globalToken, two, { status: "ACTIVE" });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("VALIDATION_FAILED");
    expect(refused.body.message).toContain(one);
    expect(refused.body.message).toContain("Day bot 2");
    expect(fieldsOf(refused)).toEqual(["body.chatbot.status"]);
    const createdActive = await create(c.globalToken, valid({ status: "ACTIVE" }));
    expect(createdActive.status).toBe(400);
    expect(createdActive.body.message).toContain(one);

    // Another sender of the same customer may have its own.
    const elsewhere = await create(c.globalToken, valid({ status: "ACTIVE" }), { senderId: c.otherSender.phoneNumber });
    expect(elsewhere.status).toBe(201);

    await update(c.globalToken, one, { status: "INACTIVE" });
    expect((await update(c.globalToken, two, { status: "ACTIVE" })).body.data.status).toBe("ACTIVE");
  });

  it("two activations racing: exactly one wins", async () => {
    const c = await createTestCustomer();
    const uids = await Promise.all(
      [1, 2, 3].map(
        async (i) => (await create(c.globalToken, valid({ name: `bot ${i}` }))).body.data.chatbotUid as string,
      ),
    );
    const results = await Promise.all(uids.map((uid) => update(c.globalToken, uid, { status: "ACTIVE" })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body.error_code).toBe("VALIDATION_FAILED");
    const active = await call("GET", "/api/v3/chatbots", { token: c.globalToken, query: { status: "ACTIVE" } });
    expect(active.body.data.pagination.total).toBe(1);
  });
});

describe("update", () => {
  it("changes only the fields sent; null clears the fallback and business hours", async () => {
    const businessHours = { timezone: "UTC", days: [{ day: 1, open: "09:00", close: "17:00" }], awayReply: text("z") };
    const bot = (await create(a.globalToken, valid({ businessHours }))).body.data;
    const renamed = await update(a.globalToken, bot.chatbotUid, { name: "Renamed" });
    expect(renamed.body.data).toMatchObject({ name: "Renamed", rules: bot.rules, businessHours });
    const cleared = await update(a.globalToken, bot.chatbotUid, { fallbackReply: null, businessHours: null });
    expect(cleared.body.data).toMatchObject({ name: "Renamed", fallbackReply: null, businessHours: null });
    const rules = [{ match: { type: "any" }, reply: text("Hello!") }];
    expect((await update(a.globalToken, bot.chatbotUid, { rules })).body.data.rules).toEqual(rules);
  });
});

describe("dry-run test", () => {
  it("says which rule answers, what it would send and whether it hands off; sends nothing", async () => {
    const uid = (await create(a.globalToken, valid())).body.data.chatbotUid;
    const hours = await dryRun(a.globalToken, uid, "  HOURS ");
    expect(hours.status).toBe(200);
    expect(hours.body.data).toEqual({
      chatbotUid: uid,
      matchedRule: 0,
      reply: text("We are open 9-17"),
      handoff: false,
      withinBusinessHours: true,
      timedOut: false,
    });
    expect((await dryRun(a.globalToken, uid, "agent")).body.data).toMatchObject({ matchedRule: 1, handoff: true });
    expect((await dryRun(a.globalToken, uid, "where is order #42")).body.data).toMatchObject({
      matchedRule: 2,
      reply: { type: "template", template: { name: "order_status", language: "en" } },
    });
    expect((await dryRun(a.globalToken, uid, "something else")).body.data).toMatchObject({
      matchedRule: null,
      reply: text("Type hours, or agent for a person"),
    });
    const closedAllWeek = {
      timezone: "Pacific/Kiritimati",
      days: [{ day: 0, open: "00:00", close: "00:01" }],
      awayReply: text("Closed"),
    };
    await update(a.globalToken, uid, { businessHours: closedAllWeek, fallbackReply: null });
    const away = await dryRun(a.globalToken, uid, "hours");
    // Unless this runs in Sunday's first minute in Kiritimati, the bot is closed.
    if (away.body.data.withinBusinessHours === false) {
      expect(away.body.data).toMatchObject({ matchedRule: null, reply: text("Closed") });
    }
    const missing = await call("POST", `/api/v3/chatbots/${uid}/test`, { token: a.globalToken, body: {} });
    expect(missing.status).toBe(400);
    expect(fieldsOf(missing)).toContain("body.text");
  });
});

describe("tenant and sender isolation", () => {
  it("another customer's chatbot uid is CHATBOT_NOT_FOUND on every route, and never listed", async () => {
    const uid = (await create(a.globalToken, valid())).body.data.chatbotUid;
    for (const token of [b.globalToken, b.scopedToken]) {
      const answers = [
        await call("GET", `/api/v2/chatbots/${uid}`, { token }),
        await call("GET", `/api/v3/chatbots/${uid}`, { token }),
        await update(token, uid, { name: "hijacked" }),
        await update(token, uid, { status: "ACTIVE" }),
        await dryRun(token, uid, "hours"),
      ];
      for (const res of answers) {
        expect(res.status).toBe(404);
        expect(res.body.error_code).toBe("CHATBOT_NOT_FOUND");
      }
      const list = await call("GET", "/api/v3/chatbots", { token });
      expect(list.body.data.chatbots.map((x: { chatbotUid: string }) => x.chatbotUid)).not.toContain(uid);
    }
    const read = await call("GET", `/api/v3/chatbots/${uid}`, { token: a.globalToken });
    expect(read.body.data.name).toBe("Front desk");
    // Naming the other customer's sender is SENDER_NOT_FOUND, not a way in.
    const viaSender = await call("GET", `/api/v3/chatbots/${uid}`, {
      token: b.globalToken,
      query: { senderId: a.sender.phoneNumber },
    });
    expect(viaSender.body.error_code).toBe("SENDER_NOT_FOUND");
  });

  it("a chatbot of the customer's other sender: a scoped token gets CHATBOT_NOT_FOUND or TOKEN_SCOPE_NOT_ALLOWED", async () => {
    const other = a.otherSender.phoneNumber;
    const uid = (await create(a.globalToken, valid(), { senderId: other })).body.data.chatbotUid;
    for (const res of [
      await call("GET", `/api/v2/chatbots/${uid}`, { token: a.scopedToken }),
      await update(a.scopedToken, uid, { name: "x" }),
      await dryRun(a.scopedToken, uid, "hours"),
      // A global token naming another sender does not reach it either.
      await call("GET", `/api/v3/chatbots/${uid}`, { token: a.globalToken, query: { senderId: a.sender.phoneNumber } }),
      await update(a.globalToken, uid, { name: "x" }, { senderId: a.sender.phoneNumber }),
      await dryRun(a.globalToken, uid, "hours", { senderId: a.sender.phoneNumber }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error_code).toBe("CHATBOT_NOT_FOUND");
    }
    for (const res of [
      await call("GET", `/api/v2/chatbots/${uid}`, { token: a.scopedToken, query: { senderId: other } }),
      await update(a.scopedToken, uid, { name: "x" }, { senderId: other }),
      await dryRun(a.scopedToken, uid, "hours", { senderId: other }),
      await call("GET", "/api/v2/chatbots", { token: a.scopedToken, query: { senderId: other } }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.error_code).toBe("TOKEN_SCOPE_NOT_ALLOWED");
    }
    const scopedList = await call("GET", "/api/v3/chatbots", { token: a.scopedToken });
    expect(scopedList.body.data.chatbots.map((x: { chatbotUid: string }) => x.chatbotUid)).not.toContain(uid);
    expect((await call("GET", `/api/v3/chatbots/${uid}`, { token: a.globalToken })).status).toBe(200);
  });

  it("malformed uids are CHATBOT_NOT_FOUND", async () => {
    const res = await call("GET", `/api/v3/chatbots/${encodeURIComponent("bad id!")}`, { token: a.globalToken });
    expect(res.status).toBe(404);
    expect(res.body.error_code).toBe("CHATBOT_NOT_FOUND");
  });
});
