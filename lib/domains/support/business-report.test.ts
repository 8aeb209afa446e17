// The support report's business-hours figures and its label and member filters
// (docs/reports.md "Business hours", "Filters"): a fixed history written through the
// statements of the live path (periods.ts) on an account with business hours, whose waits
// cross a closed night and a weekend, against hand-computed figures; the conversation objects
// staying in wall-clock seconds; hours changed later not rewriting history; an account without
// hours; the filters alone and together, their validation and isolation between accounts; the
// Reports page's figures and CSV; and the SQL business seconds agreeing with hours.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { type BusinessHours, businessSecondsBetween } from "@/lib/domains/business-hours/hours";
import { supportCsv, supportDashboard } from "@/lib/domains/support/dashboard";
import { recordCloses, recordPersonReplies } from "@/lib/domains/support/periods";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { createMemberOf, memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

/** Weekdays 09:00-17:00 in Berlin: 08:00-16:00 UTC in November. */
const HOURS = {
  timezone: "Europe/Berlin",
  days: [1, 2, 3, 4, 5].map((day) => ({ day, open: "09:00", close: "17:00" })),
  holidays: [],
};
const NOVEMBER = { dateFrom: "2026-11-01", dateTo: "2026-11-30", timeZone: "Europe/Berlin" };

async function setHours(t: Customer, businessHours: BusinessHours | null) {
  const res = await call("POST", "/api/v3/settings/business-hours", { token: t.globalToken, body: { businessHours } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The contact writes at `at` (the live inbound path); the conversation's uid. */
async function writes(t: Customer, contact: string, at: string): Promise<string> {
  await contactWrites(t.sender, contact, "Help", { at: new Date(at) });
  const c = await db.conversation.findFirstOrThrow({
    where: { customerId: t.customer.id, contactPhoneNumber: contact },
    select: { id: true },
  });
  return c.id;
}
const reply = (conversationId: string, at: string, responder: string) =>
  recordPersonReplies(db, [{ conversationId, at: new Date(at), responder }]);
const close = (conversationId: string, at: string, closedBy: string | null) =>
  recordCloses(db, [{ conversationId, at: new Date(at), closedBy }]);

async function label(t: Customer, uid: string, name: string) {
  const res = await call("POST", `/api/v3/conversations/${uid}/labels`, {
    token: t.globalToken,
    body: { add: [name] },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const report = async (t: Customer, query: Record<string, string> = {}) => {
  const res = await call("GET", "/api/v3/reports/support", { token: t.globalToken, query: { ...NOVEMBER, ...query } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
const span = (
  median: number | null,
  p90: number | null,
  businessMedian: number | null,
  businessP90: number | null,
) => ({
  median,
  p90,
  businessMedian,
  businessP90,
});
const NONE = span(null, null, null, null);

let a: Customer;
let b: Customer;
let m1: string;
let m2: string;
let c1: string;

/*
 * Account A (hours as HOURS, times in UTC, Berlin is UTC+1):
 * C1 (refund): the contact writes Friday 11-06 15:30 (16:30 local); m1 answers Monday 08:15
 *   (first response 233,100 s; business: 30 min on Friday + 15 on Monday = 2,700 s); the
 *   contact writes 09:00, m1 answers 09:20 (next 1,200 s, all in hours); m1 closes 11:00
 *   (resolution 243,000 s; business 1,800 + 10,800 = 12,600 s).
 * C2 (no label): the contact writes Tuesday 11-10 19:00 (20:00, closed); the API answers
 *   Wednesday 08:10 (47,400 s; business 600 s) and closes 09:00 (50,400 s; business 3,600 s).
 * C3 (refund): the contact writes Wednesday 13:00; m2 answers 13:05 (300 s), closes 14:00
 *   (3,600 s), all in hours.
 * Account B (no hours; its own "refund" label and member): one conversation as C1, answered
 * and closed through the API.
 */
beforeAll(async () => {
  [a, b] = await Promise.all([messagingCustomer(), messagingCustomer()]);
  await setHours(a, HOURS);
  m1 = (await createMemberOf(a.customer.id, "agent")).email;
  m2 = (await createMemberOf(a.customer.id, "agent")).email;
  for (const t of [a, b]) {
    const res = await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name: "refund" } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  c1 = await writes(a, uniquePhone(), "2026-11-06T15:30:00Z");
  await reply(c1, "2026-11-09T08:15:00Z", m1);
  const c1Contact = (await db.conversation.findUniqueOrThrow({ where: { id: c1 } })).contactPhoneNumber;
  await writes(a, c1Contact, "2026-11-09T09:00:00Z");
  await reply(c1, "2026-11-09T09:20:00Z", m1);
  await close(c1, "2026-11-09T11:00:00Z", m1);
  await label(a, c1, "refund");

  const c2 = await writes(a, uniquePhone(), "2026-11-10T19:00:00Z");
  await reply(c2, "2026-11-11T08:10:00Z", "api");
  await close(c2, "2026-11-11T09:00:00Z", null);

  const c3 = await writes(a, uniquePhone(), "2026-11-11T13:00:00Z");
  await reply(c3, "2026-11-11T13:05:00Z", m2);
  await close(c3, "2026-11-11T14:00:00Z", m2);
  await label(a, c3, "refund");

  await createMemberOf(b.customer.id, "agent");
  const other = await writes(b, uniquePhone(), "2026-11-06T15:30:00Z");
  await reply(other, "2026-11-09T08:15:00Z", "api");
  await close(other, "2026-11-09T11:00:00Z", null);
  await label(b, other, "refund");
});

describe("business-hours figures", () => {
  it("counts only the open hours of waits across a night and a weekend; the totals' percentiles by hand", async () => {
    const body = await report(a, { groupBy: "member" });
    expect(body).toMatchObject({ businessHours: true, label: null, memberId: null });
    expect(body.totals).toMatchObject({
      conversations: 3,
      resolved: 3,
      // Wall clock [300, 47,400, 233,100]: p90 = 47,400 + 0.8 x 185,700; business [300, 600, 2,700].
      firstResponse: span(47_400, 195_960, 600, 2280),
      nextResponse: span(1200, 1200, 1200, 1200),
      // Wall clock [3,600, 50,400, 243,000]; business [3,600, 3,600, 12,600].
      resolution: span(50_400, 204_480, 3600, 10_800),
    });
    const groups = Object.fromEntries(body.groups.map((g: { key: string }) => [g.key, g]));
    expect(groups[m1]).toMatchObject({
      firstResponse: span(233_100, 233_100, 2700, 2700),
      resolution: span(243_000, 243_000, 12_600, 12_600),
    });
    expect(groups.api).toMatchObject({
      firstResponse: span(47_400, 47_400, 600, 600),
      resolution: span(50_400, 50_400, 3600, 3600),
    });
  });

  it("keeps the conversation's own figures in wall-clock seconds", async () => {
    const res = await call("GET", `/api/v3/conversations/${c1}`, { token: a.globalToken });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ resolutionSeconds: 243_000 });
  });

  it("an account without business hours answers null business figures", async () => {
    const body = await report(b);
    expect(body.businessHours).toBe(false);
    expect(body.totals.firstResponse).toEqual(span(233_100, 233_100, null, null));
    expect(body.totals.resolution).toEqual(span(243_000, 243_000, null, null));
    const rows = await db.supportPeriod.findMany({ where: { customerId: b.customer.id } });
    expect(rows.map((r) => [r.firstResponseBusinessSeconds, r.resolutionBusinessSeconds])).toEqual([[null, null]]);
  });
});

describe("the label and memberId filters", () => {
  it("narrow every figure, alone and together, whatever the label's case", async () => {
    const refund = await report(a, { label: "REFUND" });
    expect(refund).toMatchObject({ label: "refund", memberId: null });
    expect(refund.totals).toMatchObject({
      conversations: 2,
      resolved: 2,
      firstResponse: span(116_700, 209_820, 1500, 2460),
      resolution: span(123_300, 219_060, 8100, 11_700),
      nextResponse: span(1200, 1200, 1200, 1200),
    });
    const first = await report(a, { memberId: m1.toUpperCase() });
    expect(first).toMatchObject({ memberId: m1 });
    expect(first.totals).toMatchObject({
      conversations: 1,
      inbound: 2,
      outbound: 2,
      resolved: 1,
      firstResponse: span(233_100, 233_100, 2700, 2700),
      resolution: span(243_000, 243_000, 12_600, 12_600),
    });
    const api = await report(a, { memberId: "api" });
    expect(api.totals).toMatchObject({
      conversations: 1,
      firstResponse: span(47_400, 47_400, 600, 600),
      nextResponse: NONE,
      resolution: span(50_400, 50_400, 3600, 3600),
    });
    const both = await report(a, { label: "refund", memberId: m2, groupBy: "day" });
    expect(both.totals).toMatchObject({ conversations: 1, firstResponse: span(300, 300, 300, 300) });
    expect(both.groups).toHaveLength(30);
    const active = both.groups.filter((g: { conversations: number }) => g.conversations > 0);
    expect(active.map((g: { key: string }) => g.key)).toEqual(["2026-11-11"]);
    expect((await report(a, { label: "refund", memberId: "api" })).totals).toMatchObject({
      conversations: 0,
      resolved: 0,
      firstResponse: NONE,
    });
  });

  it("refuses an unknown label or member, another account's included, with the error envelope", async () => {
    const bMember = await db.user.findFirstOrThrow({ where: { customerId: b.customer.id }, select: { email: true } });
    for (const [t, query, status, code] of [
      [a, { memberId: bMember.email }, 400, "VALIDATION_FAILED"],
      [b, { memberId: m1 }, 400, "VALIDATION_FAILED"],
      [a, { memberId: "not-an-email" }, 400, "VALIDATION_FAILED"],
      [a, { label: "no-such-label" }, 404, "LABEL_NOT_FOUND"],
    ] as const) {
      const res = await call("GET", "/api/v3/reports/support", {
        token: t.globalToken,
        query: { ...NOVEMBER, ...query },
      });
      expect(res.status, JSON.stringify(query)).toBe(status);
      expect(res.body.error_code).toBe(code);
      if (code === "VALIDATION_FAILED") expect(JSON.stringify(res.body)).toContain("memberId");
    }
    // Each account's "refund" counts its own conversations only.
    expect((await report(b, { label: "refund" })).totals).toMatchObject({ conversations: 1, resolved: 1 });
    expect((await report(a, { label: "refund" })).totals).toMatchObject({ conversations: 2, resolved: 2 });
  });
});

describe("a removed member", () => {
  it("keeps their figures under memberId; another account still cannot name them", async () => {
    const t = await messagingCustomer();
    const other = await messagingCustomer();
    const gone = await createMemberOf(t.customer.id, "agent");
    const c = await writes(t, uniquePhone(), "2026-11-16T09:00:00Z");
    await reply(c, "2026-11-16T09:10:00Z", gone.email);
    await close(c, "2026-11-16T10:00:00Z", gone.email);
    await db.user.deleteMany({ where: { id: gone.userId, customerId: t.customer.id } });
    const res = await report(t, { memberId: gone.email.toUpperCase() });
    expect(res).toMatchObject({ memberId: gone.email });
    expect(res.totals).toMatchObject({ conversations: 1, resolved: 1, firstResponse: { median: 600, p90: 600 } });
    const refused = await call("GET", "/api/v3/reports/support", {
      token: other.globalToken,
      query: { ...NOVEMBER, memberId: gone.email },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error_code).toBe("VALIDATION_FAILED");
    expect(JSON.stringify(refused.body)).toContain("memberId");
  });
});

describe("the Reports page", () => {
  it("reads the filters and both kinds of durations; its CSV carries both", async () => {
    const p = memberPrincipal(a.customer.id, { role: "admin" });
    const now = new Date("2026-11-20T12:00:00Z");
    const page = await supportDashboard(p, 30, now, "label", { label: "refund" });
    expect(page.businessHours).toBe(true);
    expect(page.totals.firstResponse).toEqual(span(116_700, 209_820, 1500, 2460));
    expect(page.byGroup.map((g) => g.key)).toEqual(["refund"]);
    const { csv } = await supportCsv(p, "members", 30, now, { memberId: m1 });
    const [header, ...rows] = csv.trim().split("\n");
    const columns = header?.split(",") ?? [];
    const row = Object.fromEntries((rows[0]?.split(",") ?? []).map((v, i) => [columns[i], v]));
    expect(rows).toHaveLength(1);
    expect(row).toMatchObject({
      member: m1,
      firstResponseMedianSeconds: "233100",
      firstResponseBusinessMedianSeconds: "2700",
      resolutionP90Seconds: "243000",
      resolutionBusinessP90Seconds: "12600",
      nextResponseBusinessMedianSeconds: "1200",
    });
  });
});

describe("hours changed later", () => {
  it("do not rewrite the figures already written; without hours the business figures are null", async () => {
    await setHours(a, {
      timezone: "UTC",
      days: [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, open: "00:00", close: "24:00" })),
      holidays: [],
    });
    expect((await report(a)).totals.firstResponse).toEqual(span(47_400, 195_960, 600, 2280));
    await setHours(a, null);
    const body = await report(a);
    expect(body.businessHours).toBe(false);
    expect(body.totals.firstResponse).toEqual(span(47_400, 195_960, null, null));
  });
});

/** The SQL function's answer for each [from, to) span, in order. */
const sqlSeconds = (spans: [string, string][], hours: BusinessHours) =>
  db.$queryRawUnsafe<{ n: number | null }[]>(
    `SELECT switchboard_business_seconds(s.a::timestamp(3), s.b::timestamp(3), $3::jsonb) AS n
     FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS s(a, b, i) ORDER BY s.i`,
    spans.map((s) => s[0]),
    spans.map((s) => s[1]),
    JSON.stringify(hours),
  );

describe("switchboard_business_seconds", () => {
  it("agrees with businessSecondsBetween across nights, weekends, a holiday, a range past midnight and DST", async () => {
    const hours: BusinessHours = {
      timezone: "Europe/Berlin",
      days: [
        { day: 1, open: "09:00", close: "17:00" },
        { day: 1, open: "18:00", close: "20:00" },
        { day: 3, open: "09:00", close: "24:00" },
        { day: 5, open: "22:00", close: "02:00" },
        { day: 6, open: "10:00", close: "12:00" },
      ],
      holidays: ["2026-03-30"],
    };
    const spans: [string, string][] = [
      ["2026-11-06T15:30:00Z", "2026-11-09T08:15:00Z"],
      ["2026-03-27T12:00:00Z", "2026-04-02T12:00:00Z"],
      ["2026-10-23T20:00:00Z", "2026-10-27T10:00:00Z"],
      ["2026-11-13T21:30:00Z", "2026-11-14T00:30:00Z"],
      ["2026-11-09T10:00:00Z", "2026-11-09T10:00:00Z"],
      ["2026-11-09T10:00:00Z", "2026-11-09T09:00:00Z"],
      ["2026-01-01T00:00:00Z", "2026-12-31T00:00:00Z"],
    ];
    const rows = await sqlSeconds(spans, hours);
    const expected = spans.map(([x, y]) => businessSecondsBetween(new Date(x), new Date(y), hours));
    expect(rows.map((r) => r.n)).toEqual(expected);
    // By hand: Friday 22:00 to Saturday 02:00, Saturday 10:00-12:00, Monday 09:00-09:15.
    expect(expected[0]).toBe(14_400 + 7200 + 900);
    const unknown = await db.$queryRawUnsafe<{ n: number | null }[]>(
      `SELECT switchboard_business_seconds(now()::timestamp - interval '1 hour', now()::timestamp, $1::jsonb) AS n`,
      JSON.stringify({ ...hours, timezone: "Mars/Olympus" }),
    );
    expect(unknown[0]?.n).toBeNull();
  });

  it("agrees with businessSecondsBetween where a range opens or closes in New York's skipped or repeated hour", async () => {
    const hours: BusinessHours = {
      timezone: "America/New_York",
      days: [
        { day: 0, open: "01:00", close: "02:30" },
        { day: 0, open: "01:30", close: "09:00" },
        { day: 6, open: "22:00", close: "02:30" },
      ],
      holidays: [],
    };
    const spans: [string, string][] = [
      ["2026-03-07T12:00:00Z", "2026-03-09T12:00:00Z"],
      ["2026-03-08T05:00:00Z", "2026-03-08T08:00:00Z"],
      ["2026-10-31T12:00:00Z", "2026-11-02T12:00:00Z"],
      ["2026-11-01T05:00:00Z", "2026-11-01T07:00:00Z"],
    ];
    const rows = await sqlSeconds(spans, hours);
    expect(rows.map((r) => r.n)).toEqual(
      spans.map(([x, y]) => businessSecondsBetween(new Date(x), new Date(y), hours)),
    );
  });
});
