// The support figures through the real router (docs/reports.md "Definitions"): a conversation's
// first response, next response and resolution, a reopen starting a new period, a chatbot's
// hold and hand-off, the report's groups and totals against hand-computed values, the heatmap,
// validation, and isolation between accounts and senders.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { markHandedOff } from "@/lib/domains/conversations/handoff";
import { replyToConversation } from "@/lib/domains/messaging/conversation-reply";
import { supportCsv, supportDashboard } from "@/lib/domains/support/dashboard";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";

recordApiAnswers();

const SECOND = 1000;
const ago = (seconds: number) => new Date(Date.now() - seconds * SECOND);
/** Figures measured against the clock of a reply made "now": within a few seconds of the hand count. */
const near = (value: number | null, expected: number) => {
  expect(value).not.toBeNull();
  expect(Math.abs((value ?? 0) - expected)).toBeLessThanOrEqual(5);
};

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

async function conversationUid(token: string, contact: string): Promise<string> {
  const res = await call("GET", "/api/v3/conversations", { token, query: { search: contact } });
  const found = res.body.data.conversations.find(
    (c: { contactPhoneNumber: string }) => c.contactPhoneNumber === contact,
  );
  if (!found) throw new Error(`no conversation with ${contact}`);
  return found.conversationUid;
}

const reply = (token: string, uid: string, text = "On it") =>
  call("POST", `/api/v3/conversations/${uid}/messages`, {
    token,
    body: { message: { type: "text", text: { body: text } } },
  });

const readConversation = async (token: string, uid: string) =>
  (await call("GET", `/api/v3/conversations/${uid}`, { token })).body.data;

const close = (token: string, uid: string) =>
  call("POST", `/api/v3/conversations/${uid}`, { token, body: { conversation: { status: "CLOSED" } } });

const report = async (token: string, query: Record<string, string> = {}) => {
  const res = await call("GET", "/api/v3/reports/support", { token, query });
  expect(res.status).toBe(200);
  return res.body.data;
};

/**
 * One conversation's history, with times chosen so each figure is known by hand:
 * the contact writes 600 s ago, a person replies now (first response 600 s), the contact
 * writes again 120 s ago (after the reply in order of arrival), the person replies now (next
 * response 120 s), the conversation is closed now (resolution 600 s), and the contact writes
 * again (a reopened period, waiting).
 */
async function history(t: Customer, contact: string) {
  await contactWrites(t.sender, contact, "My order is late", { at: ago(600) });
  const uid = await conversationUid(t.globalToken, contact);
  expect((await reply(t.globalToken, uid)).status).toBe(200);
  await contactWrites(t.sender, contact, "Any news?", { at: ago(120) });
  expect((await reply(t.globalToken, uid, "Shipped today")).status).toBe(200);
  return uid;
}

describe("a conversation's figures", () => {
  it("first response, resolution, and a new period after a reopen", async () => {
    const t = await messagingCustomer();
    const contact = uniquePhone();
    const uid = await history(t, contact);

    const open = await readConversation(t.globalToken, uid);
    near(open.firstResponseSeconds, 600);
    expect(open.resolutionSeconds).toBeNull();

    expect((await close(t.globalToken, uid)).status).toBe(200);
    const closed = await readConversation(t.globalToken, uid);
    near(closed.firstResponseSeconds, 600);
    near(closed.resolutionSeconds, 600);

    await contactWrites(t.sender, contact, "One more thing");
    const reopened = await readConversation(t.globalToken, uid);
    expect(reopened.status).toBe("OPEN");
    expect(reopened.firstResponseSeconds).toBeNull();
    expect(reopened.resolutionSeconds).toBeNull();

    const periods = await db.supportPeriod.findMany({ where: { conversationId: uid }, orderBy: { startedAt: "asc" } });
    expect(periods.map((p) => [p.reopened, p.inboundCount, p.replyCount, p.resolvedAt !== null])).toEqual([
      [false, 2, 2, true],
      [true, 1, 0, false],
    ]);
    expect(periods[1]?.waitingSince).not.toBeNull();
  });

  it("a replayed inbound callback counts once", async () => {
    const t = await messagingCustomer();
    const contact = uniquePhone();
    const id = await contactWrites(t.sender, contact, "Hello", { at: ago(60) });
    await contactWrites(t.sender, contact, "Hello", { at: ago(60), id });
    const uid = await conversationUid(t.globalToken, contact);
    const [period] = await db.supportPeriod.findMany({ where: { conversationId: uid } });
    expect(period?.inboundCount).toBe(1);
  });

  it("two replies at once end one wait: one response", async () => {
    const t = await messagingCustomer();
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Hello", { at: ago(30) });
    const uid = await conversationUid(t.globalToken, contact);
    const answers = await Promise.all([reply(t.globalToken, uid, "a"), reply(t.globalToken, uid, "b")]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const responses = await db.supportResponse.findMany({ where: { period: { conversationId: uid } } });
    expect(responses).toHaveLength(1);
    expect(responses[0]).toMatchObject({ first: true, responder: "api" });
  });

  it("while a chatbot holds the conversation nothing waits; the hand-off starts the wait", async () => {
    const t = await messagingCustomer();
    await db.chatbot.create({
      data: {
        id: `cbt_${Date.now()}${Math.random().toString(36).slice(2, 8)}`,
        customerId: t.customer.id,
        senderId: t.sender.id,
        activeSenderId: t.sender.id,
        name: "Front desk",
        status: "ACTIVE",
        rules: [],
      },
    });
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "Hi bot", { at: ago(900) });
    const uid = await conversationUid(t.globalToken, contact);
    expect((await db.supportPeriod.findFirstOrThrow({ where: { conversationId: uid } })).waitingSince).toBeNull();

    await db.$transaction((tx) =>
      markHandedOff(tx, {
        customerId: t.customer.id,
        senderId: t.sender.id,
        contactPhoneNumber: contact,
        chatbot: { id: "cbt_x", name: "Front desk" },
        matchedRule: null,
        inboundMessageId: "wamid.x",
        at: ago(300),
      }),
    );
    expect((await reply(t.globalToken, uid)).status).toBe(200);
    // From the hand-off (300 s ago), not from the first inbound (900 s ago).
    near((await readConversation(t.globalToken, uid)).firstResponseSeconds, 300);
  });
});

describe("GET /reports/support", () => {
  it("groups and totals match the hand count; a closed period's resolution lands on its close day", async () => {
    const t = await messagingCustomer();
    const first = uniquePhone();
    const uid = await history(t, first);
    expect((await close(t.globalToken, uid)).status).toBe(200);
    await contactWrites(t.sender, first, "Reopened");
    // A second contact, never answered.
    await contactWrites(t.otherSender, uniquePhone(), "Hello?", { at: ago(60) });

    const body = await report(t.globalToken);
    expect(body.groupBy).toBe("day");
    expect(body.timeZone).toBe("UTC");
    expect(body.senderId).toBeNull();
    const { totals } = body;
    expect(totals).toMatchObject({ conversations: 3, reopened: 1, inbound: 4, outbound: 2, resolved: 1 });
    near(totals.firstResponse.median, 600);
    near(totals.firstResponse.p90, 600);
    near(totals.nextResponse.median, 120);
    near(totals.resolution.median, 600);
    // Every day of the 30 up to today is a group, in order, zero where nothing happened.
    const days = body.groups.map((g: { key: string }) => g.key);
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    for (const [i, d] of days.entries()) {
      if (i > 0) expect(Date.parse(d) - Date.parse(days[i - 1])).toBe(86_400_000);
    }
    expect(body.groups.reduce((n: number, g: { conversations: number }) => n + g.conversations, 0)).toBe(3);

    const bySender = await report(t.globalToken, { groupBy: "sender" });
    const counts = Object.fromEntries(
      bySender.groups.map((g: { key: string; conversations: number }) => [g.key, g.conversations]),
    );
    expect(counts).toEqual({ [t.sender.phoneNumber]: 2, [t.otherSender.phoneNumber]: 1 });

    // A number-scoped token reads its own sender only.
    const scoped = await report(t.scopedToken);
    expect(scoped.senderId).toBe(t.sender.phoneNumber);
    expect(scoped.totals.conversations).toBe(2);

    // Another account sees none of it.
    const other = await messagingCustomer();
    expect((await report(other.globalToken)).totals).toMatchObject({ conversations: 0, resolved: 0 });
    const nothing = (await report(other.globalToken)).groups;
    expect(nothing).toHaveLength(30);
    for (const g of nothing) {
      expect(g).toMatchObject({ conversations: 0, inbound: 0, resolved: 0, slaBreaches: 0 });
      expect(g.firstResponse).toEqual({ median: null, p90: null, businessMedian: null, businessP90: null });
    }
  });

  it("by member: periods by who answered first, closes by who closed, responses by who replied", async () => {
    const t = await messagingCustomer();
    const email = `lead-${uniquePhone().slice(1)}@example.com`;
    const member = await db.user.create({
      data: { customerId: t.customer.id, email, name: "Lead", role: "admin", passwordHash: "x" },
    });
    const answered = uniquePhone();
    await contactWrites(t.sender, answered, "Help", { at: ago(300) });
    const uid = await conversationUid(t.globalToken, answered);
    // The member answers in the inbox (dashboard), then the API closes it.
    const p = memberPrincipal(t.customer.id, { userId: member.id, email });
    await replyToConversation(
      p,
      undefined,
      uid,
      { type: "text", text: { body: "Looking" } },
      {
        by: "dashboard",
        label: email,
      },
    );
    expect((await close(t.globalToken, uid)).status).toBe(200);
    await contactWrites(t.sender, uniquePhone(), "Nobody home?", { at: ago(30) });

    const body = await report(t.globalToken, { groupBy: "member" });
    const byKey = Object.fromEntries(body.groups.map((g: { key: string }) => [g.key, g]));
    expect(Object.keys(byKey).sort()).toEqual(["api", email, "unanswered"].sort());
    expect(byKey[email]).toMatchObject({ conversations: 1, resolved: 0 });
    near(byKey[email].firstResponse.median, 300);
    expect(byKey.unanswered).toMatchObject({ conversations: 1, firstResponse: { median: null, p90: null } });
    expect(byKey.api).toMatchObject({ conversations: 0, resolved: 1 });
    expect(body.totals).toMatchObject({ conversations: 2, resolved: 1 });
  });

  it("a range that ended before the history counts nothing; weeks start on Monday", async () => {
    const t = await messagingCustomer();
    await contactWrites(t.sender, uniquePhone(), "Hello", { at: ago(60) });
    const empty = await report(t.globalToken, { dateFrom: "2020-01-01", dateTo: "2020-01-31" });
    expect(empty.totals.conversations).toBe(0);
    const weeks = await report(t.globalToken, { groupBy: "week" });
    for (const g of weeks.groups) expect(new Date(`${g.key}T00:00:00Z`).getUTCDay()).toBe(1);
  });

  it("refuses a bad range or time zone, naming the field", async () => {
    const t = await messagingCustomer();
    for (const [query, field] of [
      [{ dateFrom: "2026-02-01", dateTo: "2026-01-01" }, "dateTo"],
      [{ dateFrom: "2024-01-01", dateTo: "2026-01-01" }, "dateTo"],
      [{ dateFrom: "2000-01-01" }, "dateFrom"],
      [{ timeZone: "Mars/Olympus" }, "timeZone"],
      // Known to Node's Intl, not to PostgreSQL's or PGlite's zone data (was a 500).
      [{ timeZone: "US/Pacific-New" }, "timeZone"],
      [{ groupBy: "hour" }, "groupBy"],
      // Not days of the calendar: Date.parse rolls them over to March, PostgreSQL refuses them (were 500s).
      [{ dateFrom: "2026-02-30", dateTo: "2026-03-05" }, "dateFrom"],
      [{ dateFrom: "2026-02-01", dateTo: "2026-02-31" }, "dateTo"],
      [{ dateFrom: "2026-04-31" }, "dateFrom"],
      [{ dateFrom: "0000-01-01", dateTo: "0000-01-02" }, "dateFrom"],
    ] as const) {
      const res = await call("GET", "/api/v3/reports/support", { token: t.globalToken, query });
      expect(res.status).toBe(400);
      expect(res.body.error_code).toBe("VALIDATION_FAILED");
      expect(JSON.stringify(res.body)).toContain(field);
    }
    // dateFrom alone ends today: the year's limit holds for the heatmap too.
    const wide = await call("GET", "/api/v3/reports/support/heatmap", {
      token: t.globalToken,
      query: { dateFrom: "2000-01-01" },
    });
    expect(wide.status).toBe(400);
    expect(wide.body.details.fields[0].path).toBe("query.dateFrom");
    for (const path of ["/api/v3/reports/support/heatmap", "/api/v3/reports/csat", "/api/v3/reports/messages"]) {
      const notADay = await call("GET", path, {
        token: t.globalToken,
        query: { dateFrom: "2026-02-01", dateTo: "2026-02-30" },
      });
      expect(notADay.status, path).toBe(400);
      expect(notADay.body.error_code, path).toBe("VALIDATION_FAILED");
      expect(notADay.body.details.fields[0].path, path).toBe("query.dateTo");
    }
  });
});

describe("GET /reports/support/heatmap", () => {
  it("counts inbound messages by weekday and hour of the zone", async () => {
    const t = await messagingCustomer();
    // Wednesday 2026-11-25 at 10:30 UTC is 11:30 in Berlin.
    const at = new Date("2026-11-25T10:30:00Z");
    const contact = uniquePhone();
    await contactWrites(t.sender, contact, "one", { at });
    await contactWrites(t.sender, contact, "two", { at: new Date(at.getTime() + 60 * SECOND) });
    const query = { dateFrom: "2026-11-23", dateTo: "2026-11-29", timeZone: "Europe/Berlin" };
    const res = await call("GET", "/api/v3/reports/support/heatmap", { token: t.globalToken, query });
    expect(res.status).toBe(200);
    const { cells } = res.body.data;
    expect(cells).toHaveLength(168);
    const busy = cells.filter((c: { inbound: number }) => c.inbound > 0);
    expect(busy).toEqual([{ weekday: 3, hour: 11, inbound: 2 }]);

    const other = await messagingCustomer();
    const theirs = await call("GET", "/api/v3/reports/support/heatmap", { token: other.globalToken, query });
    expect(theirs.body.data.cells.every((c: { inbound: number }) => c.inbound === 0)).toBe(true);
  });
});

describe("the dashboard's Reports page (lib/domains/support/dashboard.ts)", () => {
  it("the period beside the one before, each table as CSV, and only for a role holding reports", async () => {
    const t = await messagingCustomer();
    const contact = uniquePhone();
    await history(t, contact);
    // Two days ago: in the last 7 days, not in the 7 before them; 10 days ago: the 7 before.
    await contactWrites(t.sender, uniquePhone(), "Earlier", { at: ago(10 * 86_400) });
    const p = memberPrincipal(t.customer.id, { role: "admin" });
    const now = new Date();

    const week = await supportDashboard(p, 7, now);
    expect(week.current.dateTo).toBe(now.toISOString().slice(0, 10));
    expect(Date.parse(week.current.dateTo) - Date.parse(week.current.dateFrom)).toBe(6 * 86_400_000);
    expect(Date.parse(week.current.dateFrom) - Date.parse(week.previous.dateTo)).toBe(86_400_000);
    expect(week.totals.conversations).toBe(1);
    near(week.totals.firstResponse.median, 600);
    expect(week.previousTotals.conversations).toBe(1);
    expect(week.previousTotals.firstResponse.median).toBeNull();
    expect(week.byMember.map((g) => g.key).sort()).toEqual(["api"]);
    expect(week.heatmap).toHaveLength(168);
    expect(week.heatmap.reduce((n, c) => n + c.inbound, 0)).toBe(2);

    const members = await supportCsv(p, "members", 7, now);
    const lines = members.csv.trim().split("\n");
    expect(lines[0]).toBe(
      "member,conversations,reopened,inbound,outbound,firstResponseMedianSeconds,firstResponseP90Seconds,firstResponseBusinessMedianSeconds,firstResponseBusinessP90Seconds,nextResponseMedianSeconds,nextResponseP90Seconds,nextResponseBusinessMedianSeconds,nextResponseBusinessP90Seconds,resolved,resolutionMedianSeconds,resolutionP90Seconds,resolutionBusinessMedianSeconds,resolutionBusinessP90Seconds,slaBreaches,csatResponses,csatHappyPercent",
    );
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["api"]);
    expect(members.fileName).toBe(`support-members-${week.current.dateFrom}-to-${week.current.dateTo}.csv`);
    const heatmap = await supportCsv(p, "heatmap", 7, now);
    expect(heatmap.csv.trim().split("\n")).toHaveLength(169);
    // A row for each of the 30 days, zero where nothing began.
    const month = await supportCsv(p, "days", 30, now);
    const monthRows = month.csv.trim().split("\n").slice(1);
    expect(monthRows).toHaveLength(30);
    expect(monthRows.map((l) => l.split(",")[1]).filter((n) => n !== "0")).toEqual(["1", "1"]);

    for (const role of ["agent", "developer", "billing"] as const) {
      const refused = memberPrincipal(t.customer.id, { role });
      await expect(supportDashboard(refused, 7, now)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
      await expect(supportCsv(refused, "members", 7, now)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    }
  });
});
