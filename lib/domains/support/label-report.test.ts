// The support report by label (docs/reports.md "By label"): a fixed history whose figures are
// known by hand (a conversation with two labels counts in both groups and once in the totals;
// the unlabelled ones are the "" group), every figure family (periods, next responses, closes,
// CSAT answers, SLA breaches), a label taken off, a number-scoped token, isolation between
// accounts (another account's label of the same name), and the Reports page's table and CSV.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { supportCsv, supportDashboard } from "@/lib/domains/support/dashboard";
import { supportReport } from "@/lib/domains/support/report";
import { SUPPORT_GROUPS } from "@/lib/domains/support/schemas";
import { recordApiAnswers } from "@/test/api-answers";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { migrationStatements } from "@/test/migration-statements";

recordApiAnswers();

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;
type Sender = Customer["sender"];
type Conversation = { id: string; senderId: string };

const RANGE = { dateFrom: "2026-11-02", dateTo: "2026-11-10" };
/** The account has no business hours: every business figure is null (docs/reports.md "Business hours"). */
const NO_HOURS = { businessMedian: null, businessP90: null };
const at = (iso: string) => new Date(iso);
const id = (prefix: string) => `${prefix}${randomBytes(8).toString("hex")}`;

/** A contact writes at `startedAt`; the conversation and its first period (figures set below by hand). */
async function conversationOf(t: Customer, sender: Sender, startedAt: string): Promise<Conversation> {
  const contact = uniquePhone();
  await contactWrites(sender, contact, "Help", { at: at(startedAt) });
  return db.conversation.findFirstOrThrow({
    where: { customerId: t.customer.id, contactPhoneNumber: contact },
    select: { id: true, senderId: true },
  });
}

type PeriodFigures = {
  startedAt: string;
  reopened?: boolean;
  inboundCount: number;
  replyCount: number;
  firstResponseSeconds: number | null;
  firstResponder?: string;
  resolutionSeconds?: number;
  closedBy?: string;
  /** A next response after a later wait: its length. */
  nextSeconds?: number;
};

/** A period with the given figures (the first one the inbound opened, else a new one), its responses as periods.ts records them. */
async function period(t: Customer, c: Conversation, f: PeriodFigures): Promise<string> {
  const startedAt = at(f.startedAt);
  const resolvedAt =
    f.resolutionSeconds === undefined ? null : new Date(startedAt.getTime() + f.resolutionSeconds * 1000);
  const firstResponseAt =
    f.firstResponseSeconds === null ? null : new Date(startedAt.getTime() + f.firstResponseSeconds * 1000);
  const data = {
    startedAt,
    reopened: f.reopened ?? false,
    inboundCount: f.inboundCount,
    replyCount: f.replyCount,
    waitingSince: firstResponseAt || resolvedAt ? null : startedAt,
    firstResponseAt,
    firstResponseSeconds: f.firstResponseSeconds,
    firstResponder: f.firstResponder ?? null,
    resolvedAt,
    resolutionSeconds: f.resolutionSeconds ?? null,
    closedBy: f.closedBy ?? null,
  };
  const opened = f.reopened ? null : await db.supportPeriod.findFirst({ where: { conversationId: c.id } });
  const periodId = opened?.id ?? id("sp_");
  if (opened) await db.supportPeriod.update({ where: { id: periodId }, data });
  else
    await db.supportPeriod.create({
      data: { ...data, id: periodId, customerId: t.customer.id, senderId: c.senderId, conversationId: c.id },
    });
  const response = (first: boolean, waitedFrom: Date, seconds: number) =>
    db.supportResponse.create({
      data: {
        id: id("sr_"),
        customerId: t.customer.id,
        senderId: c.senderId,
        periodId,
        first,
        waitedFrom,
        respondedAt: new Date(waitedFrom.getTime() + seconds * 1000),
        seconds,
        responder: f.firstResponder ?? "api",
      },
    });
  if (firstResponseAt && f.firstResponseSeconds !== null) await response(true, startedAt, f.firstResponseSeconds);
  if (firstResponseAt && f.nextSeconds !== undefined) {
    await response(false, new Date(firstResponseAt.getTime() + 600_000), f.nextSeconds);
  }
  return periodId;
}

/** A CSAT answer (1 unhappy, 2 neutral, 3 happy) to the survey of the period's close. */
function answer(t: Customer, c: Conversation, periodId: string, score: number, respondedAt: string) {
  return db.csatSurvey.create({
    data: {
      id: id("csat_"),
      customerId: t.customer.id,
      senderId: c.senderId,
      conversationId: c.id,
      periodId,
      closedAt: at(respondedAt),
      status: "SENT",
      channel: "buttons",
      score,
      respondedAt: at(respondedAt),
    },
  });
}

/** A breach as the SLA worker records it. */
function breach(t: Customer, c: Conversation, periodId: string, target: string, breachedAt: string) {
  const key = id("key_");
  return db.slaBreach.create({
    data: {
      id: id("slab_"),
      customerId: t.customer.id,
      senderId: c.senderId,
      conversationId: c.id,
      periodId,
      policyId: "sla_test",
      target,
      key,
      dueAt: new Date(Date.parse(breachedAt) - 1000),
      breachedAt: at(breachedAt),
    },
  });
}

async function label(t: Customer, c: Conversation, add: string[], remove: string[] = []) {
  const res = await call("POST", `/api/v3/conversations/${c.id}/labels`, {
    token: t.globalToken,
    body: { add, remove },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

const report = async (token: string, query: Record<string, string>) => {
  const res = await call("GET", "/api/v3/reports/support", { token, query: { groupBy: "label", ...query } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
type Group = { key: string } & Record<string, unknown>;
const byKey = (body: { groups: Group[] }) => Object.fromEntries(body.groups.map((g) => [g.key, g]));

let t: Customer;
let a: Conversation;
const lead = `lead-${randomBytes(4).toString("hex")}@example.com`;

/*
 * The history, in the range 2026-11-02 .. 2026-11-10 (UTC):
 * A (first sender, refund + VIP): period A1 from 11-03 09:00, 3 inbound, 2 replies, first
 *   response 120 s by the lead, a next response of 300 s, closed by the lead after 3,600 s; a
 *   happy answer; a next-response breach.
 * B (first sender, refund): B1 from 11-04 12:00, 1 inbound, 1 reply, first response 600 s,
 *   closed after 86,400 s; an unhappy answer; a first-response breach. B2 (reopened) from
 *   11-06 08:00, 2 inbound, unanswered.
 * C (other sender, no label): C1 from 11-07 15:00, 1 inbound, 1 reply, first response 60 s,
 *   closed after 3,600 s; a neutral answer.
 * D (other sender, VIP): D1 from 11-12: after the range, counts nowhere.
 */
beforeAll(async () => {
  t = await messagingCustomer();
  for (const name of ["refund", "VIP"]) {
    const res = await call("POST", "/api/v3/labels", { token: t.globalToken, body: { label: { name } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
  a = await conversationOf(t, t.sender, "2026-11-03T09:00:00Z");
  const b = await conversationOf(t, t.sender, "2026-11-04T12:00:00Z");
  const c = await conversationOf(t, t.otherSender, "2026-11-07T15:00:00Z");
  const d = await conversationOf(t, t.otherSender, "2026-11-12T10:00:00Z");
  await label(t, a, ["refund", "VIP"]);
  await label(t, b, ["refund"]);
  await label(t, d, ["VIP"]);

  const a1 = await period(t, a, {
    startedAt: "2026-11-03T09:00:00Z",
    inboundCount: 3,
    replyCount: 2,
    firstResponseSeconds: 120,
    firstResponder: lead,
    nextSeconds: 300,
    resolutionSeconds: 3600,
    closedBy: lead,
  });
  await answer(t, a, a1, 3, "2026-11-03T10:05:00Z");
  await breach(t, a, a1, "next_response", "2026-11-03T09:20:00Z");
  const b1 = await period(t, b, {
    startedAt: "2026-11-04T12:00:00Z",
    inboundCount: 1,
    replyCount: 1,
    firstResponseSeconds: 600,
    resolutionSeconds: 86_400,
  });
  await answer(t, b, b1, 1, "2026-11-05T12:10:00Z");
  await breach(t, b, b1, "first_response", "2026-11-04T12:05:00Z");
  await period(t, b, {
    startedAt: "2026-11-06T08:00:00Z",
    reopened: true,
    inboundCount: 2,
    replyCount: 0,
    firstResponseSeconds: null,
  });
  const c1 = await period(t, c, {
    startedAt: "2026-11-07T15:00:00Z",
    inboundCount: 1,
    replyCount: 1,
    firstResponseSeconds: 60,
    resolutionSeconds: 3600,
  });
  await answer(t, c, c1, 2, "2026-11-07T16:30:00Z");
  const d1 = await period(t, d, {
    startedAt: "2026-11-12T10:00:00Z",
    inboundCount: 1,
    replyCount: 1,
    firstResponseSeconds: 30,
    resolutionSeconds: 60,
  });
  await breach(t, d, d1, "resolution", "2026-11-12T10:01:00Z");
});

describe("GET /reports/support?groupBy=label", () => {
  it('counts each figure under every label of its conversation, the unlabelled under "", the totals once', async () => {
    const body = await report(t.globalToken, RANGE);
    expect(body.groupBy).toBe("label");
    expect(body.groups.map((g: Group) => g.key)).toEqual(["", "VIP", "refund"]);
    const groups = byKey(body);
    // refund: A1, B1, B2. First responses 120 and 600 (B2 none): median 360, p90 120 + 0.9 * 480.
    // Resolutions 3,600 and 86,400: median 45,000, p90 3,600 + 0.9 * 82,800.
    expect(groups.refund).toEqual({
      key: "refund",
      conversations: 3,
      reopened: 1,
      inbound: 6,
      outbound: 3,
      firstResponse: { median: 360, p90: 552, ...NO_HOURS },
      nextResponse: { median: 300, p90: 300, ...NO_HOURS },
      resolved: 2,
      resolution: { median: 45_000, p90: 78_120, ...NO_HOURS },
      csat: { responses: 2, score: 50 },
      slaBreaches: 2,
    });
    expect(groups.VIP).toEqual({
      key: "VIP",
      conversations: 1,
      reopened: 0,
      inbound: 3,
      outbound: 2,
      firstResponse: { median: 120, p90: 120, ...NO_HOURS },
      nextResponse: { median: 300, p90: 300, ...NO_HOURS },
      resolved: 1,
      resolution: { median: 3600, p90: 3600, ...NO_HOURS },
      csat: { responses: 1, score: 100 },
      slaBreaches: 1,
    });
    expect(groups[""]).toEqual({
      key: "",
      conversations: 1,
      reopened: 0,
      inbound: 1,
      outbound: 1,
      firstResponse: { median: 60, p90: 60, ...NO_HOURS },
      nextResponse: { median: null, p90: null, ...NO_HOURS },
      resolved: 1,
      resolution: { median: 3600, p90: 3600, ...NO_HOURS },
      csat: { responses: 1, score: 0 },
      slaBreaches: 0,
    });
    // A1, B1, B2 and C1 once each. First responses 60, 120, 600: median 120, p90 120 + 0.8 * 480.
    // Resolutions 3,600, 3,600, 86,400: median 3,600, p90 3,600 + 0.8 * 82,800.
    expect(body.totals).toEqual({
      conversations: 4,
      reopened: 1,
      inbound: 7,
      outbound: 4,
      firstResponse: { median: 120, p90: 504, ...NO_HOURS },
      nextResponse: { median: 300, p90: 300, ...NO_HOURS },
      resolved: 3,
      resolution: { median: 3600, p90: 69_840, ...NO_HOURS },
      csat: { responses: 3, score: 33.3 },
      slaBreaches: 2,
    });
    // The totals are the other groupings' totals: each row counted once.
    expect((await report(t.globalToken, { ...RANGE, groupBy: "day" })).totals).toEqual(body.totals);
  });

  it("a number-scoped token reads its sender's conversations; the range's days are the time zone's", async () => {
    const scoped = await report(t.scopedToken, RANGE);
    expect(scoped.senderId).toBe(t.sender.phoneNumber);
    expect(scoped.groups.map((g: Group) => g.key)).toEqual(["VIP", "refund"]);
    expect(scoped.totals).toMatchObject({ conversations: 3, resolved: 2, slaBreaches: 2, csat: { responses: 2 } });

    // The range ending 2026-11-12 in Berlin takes D1 in (its breach too): under VIP only.
    const later = await report(t.globalToken, {
      dateFrom: "2026-11-11",
      dateTo: "2026-11-12",
      timeZone: "Europe/Berlin",
    });
    expect(later.groups).toEqual([
      expect.objectContaining({ key: "VIP", conversations: 1, resolved: 1, slaBreaches: 1, outbound: 1 }),
    ]);
  });

  it("another account's label of the same name counts nothing here, nor this account's there", async () => {
    const other = await messagingCustomer();
    const res = await call("POST", "/api/v3/labels", { token: other.globalToken, body: { label: { name: "refund" } } });
    expect(res.status).toBe(201);
    const theirs = await conversationOf(other, other.sender, "2026-11-05T10:00:00Z");
    await label(other, theirs, ["refund"]);
    const body = await report(other.globalToken, RANGE);
    expect(body.groups).toEqual([expect.objectContaining({ key: "refund", conversations: 1, inbound: 1 })]);
    expect(body.totals).toMatchObject({ conversations: 1, slaBreaches: 0, csat: { responses: 0 } });
    expect(byKey(await report(t.globalToken, RANGE)).refund).toMatchObject({ conversations: 3, inbound: 6 });
  });

  it("groups by the labels the conversation carries now: a label taken off no longer counts it", async () => {
    await label(t, a, [], ["VIP"]);
    try {
      const body = await report(t.globalToken, RANGE);
      expect(body.groups.map((g: Group) => g.key)).toEqual(["", "refund"]);
      expect(byKey(body).refund).toMatchObject({ conversations: 3, slaBreaches: 2 });
      expect(body.totals.conversations).toBe(4);
    } finally {
      await label(t, a, ["VIP"]);
    }
  });
});

/** The figures of no row at all. */
const NONE = { median: null, p90: null, ...NO_HOURS };
const NOTHING = {
  conversations: 0,
  reopened: 0,
  inbound: 0,
  outbound: 0,
  firstResponse: NONE,
  nextResponse: NONE,
  resolved: 0,
  resolution: NONE,
  csat: { responses: 0, score: null },
  slaBreaches: 0,
};

describe("a report's parts (report.ts ReportParts: what the dashboard asks for)", () => {
  it("the groups alone and the totals alone are the whole report's, by every grouping and filter", async () => {
    const p = memberPrincipal(t.customer.id, { role: "admin" });
    const filters = [{}, { label: "refund" }, { memberId: lead }, { memberId: "unanswered" }];
    for (const groupBy of SUPPORT_GROUPS) {
      for (const filter of filters) {
        const q = { ...RANGE, timeZone: "Europe/Berlin", groupBy, ...filter };
        const whole = await supportReport(p, undefined, q);
        const groups = await supportReport(p, undefined, q, "groups");
        const totals = await supportReport(p, undefined, q, "totals");
        const name = `${groupBy} ${JSON.stringify(filter)}`;
        expect(groups.groups, name).toEqual(whole.groups);
        expect(totals.totals, name).toEqual(whole.totals);
        // The part not asked for is empty: no groups, totals of zeros.
        expect(totals.groups, name).toEqual([]);
        expect(groups.totals, name).toEqual(NOTHING);
      }
    }
    // The fixture has figures in every family, so the comparisons above compare something.
    const whole = await supportReport(p, undefined, { ...RANGE, groupBy: "member" });
    expect(whole.totals).toMatchObject({ conversations: 4, resolved: 3, slaBreaches: 2, csat: { responses: 3 } });
    expect(whole.groups.length).toBeGreaterThan(1);
  });
});

describe("the label ids the figures carry (migration 20261130152944_support_label_ids)", () => {
  it("a label added after the figures counts them; a deleted label counts nothing, its rows stay under the others", async () => {
    const other = await messagingCustomer();
    const uids: Record<string, string> = {};
    for (const name of ["gone", "kept"]) {
      const res = await call("POST", "/api/v3/labels", { token: other.globalToken, body: { label: { name } } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      uids[name] = res.body.data.labelUid;
    }
    const c = await conversationOf(other, other.sender, "2026-11-05T10:00:00Z");
    await period(other, c, {
      startedAt: "2026-11-05T10:00:00Z",
      inboundCount: 2,
      replyCount: 2,
      firstResponseSeconds: 60,
      nextSeconds: 90,
    });
    // The period and both responses were written before the labels: they count under both.
    await label(other, c, ["gone", "kept"]);
    const both = byKey(await report(other.globalToken, RANGE));
    expect(Object.keys(both)).toEqual(["gone", "kept"]);
    for (const g of [both.gone, both.kept]) {
      expect(g).toMatchObject({
        conversations: 1,
        firstResponse: { median: 60, ...NO_HOURS },
        nextResponse: { median: 90, ...NO_HOURS },
      });
    }
    const deleted = await call("DELETE", `/api/v3/labels/${uids.gone}`, { token: other.globalToken });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    const after = await report(other.globalToken, RANGE);
    expect(after.groups.map((g: Group) => g.key)).toEqual(["kept"]);
    expect(byKey(after).kept).toMatchObject({ conversations: 1, nextResponse: { median: 90, ...NO_HOURS } });
    // Filtered by the kept label, every family reads the carried ids too.
    const filtered = await call("GET", "/api/v3/reports/support", {
      token: other.globalToken,
      query: { groupBy: "day", label: "kept", ...RANGE },
    });
    expect(filtered.body.data.totals).toMatchObject({ conversations: 1, nextResponse: { median: 90, ...NO_HOURS } });
  });
});

/**
 * `first` in a transaction kept open for 300 ms after it wrote, and `second` begun once it has
 * written: the second meets the first's rows uncommitted.
 */
async function whileOpen(
  first: (tx: Pick<typeof db, "$executeRaw">) => Promise<unknown>,
  second: () => Promise<unknown>,
): Promise<void> {
  let written = () => {};
  const firstWritten = new Promise<void>((resolve) => {
    written = resolve;
  });
  const open = db.$transaction(
    async (tx) => {
      await first(tx);
      written();
      await new Promise((resolve) => setTimeout(resolve, 300));
    },
    { timeout: 20_000 },
  );
  await firstWritten;
  await Promise.all([open, second()]);
}

describe("label ids under concurrent changes", () => {
  it("two label changes of one conversation at once both end up on its figures", async () => {
    const other = await messagingCustomer();
    const ids: string[] = [];
    for (const name of ["first", "second"]) {
      const res = await call("POST", "/api/v3/labels", { token: other.globalToken, body: { label: { name } } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      ids.push(res.body.data.labelUid);
    }
    const c = await conversationOf(other, other.sender, "2026-11-05T10:00:00Z");
    const put = (tx: Pick<typeof db, "$executeRaw">, labelId: string) =>
      tx.$executeRaw`INSERT INTO "ConversationLabel" ("conversationId", "labelId", "customerId")
        VALUES (${c.id}, ${labelId}, ${other.customer.id})`;
    // The first change is still open when the second writes: at READ COMMITTED the second's
    // trigger must not keep the labels as it read them before the first committed.
    await whileOpen(
      (tx) => put(tx, ids[0] ?? ""),
      () => put(db, ids[1] ?? ""),
    );
    const periods = await db.supportPeriod.findMany({
      where: { conversationId: c.id },
      select: { labelIds: true, labelSetId: true },
    });
    expect(periods.map((p) => [...p.labelIds].sort())).toEqual([[...ids].sort()]);
    // ... and the set of both, which the report reads.
    const sets = await db.supportLabelSet.findMany({ where: { customerId: other.customer.id } });
    const both = sets.find((s) => s.id === periods[0]?.labelSetId);
    expect([...(both?.labelIds ?? [])].sort()).toEqual([...ids].sort());
    expect(await disagreeing(other.customer.id)).toEqual([]);
  });

  it("two conversations taking the same new set at once both name it", async () => {
    const other = await messagingCustomer();
    const res = await call("POST", "/api/v3/labels", { token: other.globalToken, body: { label: { name: "shared" } } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const labelId: string = res.body.data.labelUid;
    const one = await conversationOf(other, other.sender, "2026-11-05T10:00:00Z");
    const two = await conversationOf(other, other.sender, "2026-11-05T11:00:00Z");
    const put = (tx: Pick<typeof db, "$executeRaw">, c: Conversation) =>
      tx.$executeRaw`INSERT INTO "ConversationLabel" ("conversationId", "labelId", "customerId")
        VALUES (${c.id}, ${labelId}, ${other.customer.id})`;
    // The first writes the new set and stays open: the second's insert of it waits for the first to
    // commit, then finds it (its next statement sees the commit, at READ COMMITTED).
    await whileOpen(
      (tx) => put(tx, one),
      () => put(db, two),
    );
    const sets = await db.supportLabelSet.findMany({ where: { customerId: other.customer.id } });
    expect(sets.map((s) => s.labelIds)).toEqual([[labelId]]);
    const periods = await db.supportPeriod.findMany({
      where: { customerId: other.customer.id },
      select: { labelSetId: true },
    });
    expect(periods.map((p) => p.labelSetId)).toEqual([sets[0]?.id, sets[0]?.id]);
    expect(await disagreeing(other.customer.id)).toEqual([]);
  });
});

/**
 * The rows of an account whose label set disagrees with their label ids: a set id where there is no
 * label, none where there is one, or one that is not the account's set of exactly those ids.
 */
function disagreeing(customerId: string) {
  return db.$queryRaw<{ id: string }[]>`
    SELECT r."id" FROM (
      SELECT "id", "customerId", "labelIds", "labelSetId" FROM "SupportPeriod" WHERE "customerId" = ${customerId}
      UNION ALL
      SELECT "id", "customerId", "labelIds", "labelSetId" FROM "SupportResponse" WHERE "customerId" = ${customerId}) r
    LEFT JOIN "SupportLabelSet" ls ON ls."customerId" = r."customerId" AND ls."id" = r."labelSetId"
    WHERE (r."labelSetId" IS NULL) <> (cardinality(r."labelIds") = 0)
      OR (r."labelSetId" IS NOT NULL AND ls."labelIds" IS DISTINCT FROM r."labelIds")`;
}

describe("label sets (migration 20261203175827_support_label_sets)", () => {
  /** An account with `n` labels, made at once (the API makes one a call), ids in order. */
  async function labelsOf(other: Customer, n: number): Promise<{ id: string; name: string }[]> {
    const made = Array.from({ length: n }, (_, i) => {
      const name = `many-${String(i).padStart(3, "0")}`;
      return {
        id: `lbl_${randomBytes(10).toString("hex")}`,
        customerId: other.customer.id,
        name,
        nameKey: name,
        color: "gray",
      };
    });
    await db.label.createMany({ data: made });
    return made.map(({ id, name }) => ({ id, name }));
  }
  const put = (other: Customer, c: Conversation, labels: { id: string }[]) =>
    db.conversationLabel.createMany({
      data: labels.map((l) => ({ conversationId: c.id, labelId: l.id, customerId: other.customer.id })),
    });

  it("a conversation with 300 labels counts under each; conversations with the same labels share one set", async () => {
    // 300 ids are about 8,400 bytes: more than a B-tree entry holds (2,704), which is why the
    // figures indexes carry the set's id and not the ids.
    const other = await messagingCustomer();
    const labels = await labelsOf(other, 300);
    // One conversation labelled before its figures (its period and responses take the set as they
    // are written), one after (the label change rewrites them).
    const before = await conversationOf(other, other.sender, "2026-11-05T10:00:00Z");
    await put(other, before, labels);
    await period(other, before, {
      startedAt: "2026-11-05T10:00:00Z",
      inboundCount: 2,
      replyCount: 2,
      firstResponseSeconds: 60,
      nextSeconds: 90,
      resolutionSeconds: 3600,
      closedBy: "api",
    });
    const after = await conversationOf(other, other.sender, "2026-11-06T10:00:00Z");
    await period(other, after, {
      startedAt: "2026-11-06T10:00:00Z",
      inboundCount: 1,
      replyCount: 1,
      firstResponseSeconds: 120,
      nextSeconds: 30,
      resolutionSeconds: 7200,
      closedBy: "api",
    });
    await put(other, after, labels);
    // And one without a label, which the label filter leaves out.
    const plain = await conversationOf(other, other.sender, "2026-11-07T10:00:00Z");
    await period(other, plain, {
      startedAt: "2026-11-07T10:00:00Z",
      inboundCount: 1,
      replyCount: 1,
      firstResponseSeconds: 600,
      nextSeconds: 600,
    });
    const sets = await db.supportLabelSet.findMany({ where: { customerId: other.customer.id } });
    expect(sets).toHaveLength(1);
    expect(sets[0]?.labelIds).toEqual(labels.map((l) => l.id).sort());
    const carried = [
      ...(await db.supportPeriod.findMany({
        where: { conversationId: { in: [before.id, after.id] } },
        select: { labelSetId: true },
      })),
      ...(await db.supportResponse.findMany({
        where: { period: { conversationId: { in: [before.id, after.id] } } },
        select: { labelSetId: true },
      })),
    ];
    expect(carried).toHaveLength(6);
    for (const row of carried) expect(row.labelSetId).toBe(sets[0]?.id);
    expect(await disagreeing(other.customer.id)).toEqual([]);

    const body = await report(other.globalToken, RANGE);
    expect(body.groups.map((g: Group) => g.key)).toEqual(["", ...labels.map((l) => l.name)]);
    const figures = {
      conversations: 2,
      inbound: 3,
      outbound: 3,
      firstResponse: { median: 90, ...NO_HOURS },
      nextResponse: { median: 60, ...NO_HOURS },
      resolved: 2,
      resolution: { median: 5400, ...NO_HOURS },
    };
    for (const g of body.groups.slice(1)) expect(g, g.key).toMatchObject(figures);
    expect(body.groups[0]).toMatchObject({ key: "", conversations: 1, nextResponse: { median: 600, ...NO_HOURS } });
    expect(body.totals).toMatchObject({ conversations: 3, nextResponse: { median: 90, ...NO_HOURS } });
    // The label filter reads the sets too: the two labelled conversations, not the plain one.
    const filtered = await call("GET", "/api/v3/reports/support", {
      token: other.globalToken,
      query: { groupBy: "day", label: "many-299", ...RANGE },
    });
    expect(filtered.status, JSON.stringify(filtered.body)).toBe(200);
    expect(filtered.body.data.totals).toMatchObject(figures);

    // One label off one conversation: a second set; the other keeps the first.
    await db.conversationLabel.delete({
      where: { conversationId_labelId: { conversationId: after.id, labelId: labels[0]?.id ?? "" } },
    });
    expect(await db.supportLabelSet.count({ where: { customerId: other.customer.id } })).toBe(2);
    expect(await disagreeing(other.customer.id)).toEqual([]);
    const fewer = byKey(await report(other.globalToken, RANGE));
    expect(fewer["many-000"]).toMatchObject({ conversations: 1, nextResponse: { median: 90, ...NO_HOURS } });
    expect(fewer["many-001"]).toMatchObject({ conversations: 2 });
  });

  it("the migration's backfill gives rows stored before it their sets", async () => {
    const other = await messagingCustomer();
    const labels = await labelsOf(other, 3);
    const c = await conversationOf(other, other.sender, "2026-11-05T10:00:00Z");
    await put(other, c, labels.slice(0, 2));
    await period(other, c, {
      startedAt: "2026-11-05T10:00:00Z",
      inboundCount: 1,
      replyCount: 1,
      firstResponseSeconds: 60,
      nextSeconds: 90,
    });
    // As the upgrade found them: label ids, no set.
    await db.$executeRaw`UPDATE "SupportPeriod" SET "labelSetId" = NULL WHERE "customerId" = ${other.customer.id}`;
    await db.$executeRaw`UPDATE "SupportResponse" SET "labelSetId" = NULL WHERE "customerId" = ${other.customer.id}`;
    await db.$executeRaw`DELETE FROM "SupportLabelSet" WHERE "customerId" = ${other.customer.id}`;
    expect(await disagreeing(other.customer.id)).toHaveLength(3);
    // The migration's backfill, run again (it leaves rows and sets already there alone).
    const statements = migrationStatements("20261203175827_support_label_sets", {
      from: "-- The sets of the periods and responses",
      to: "-- CreateIndex",
    });
    expect(statements).toHaveLength(3);
    for (const statement of statements) await db.$executeRawUnsafe(statement);
    expect(await disagreeing(other.customer.id)).toEqual([]);
    const sets = await db.supportLabelSet.findMany({ where: { customerId: other.customer.id } });
    expect(sets.map((s) => s.labelIds)).toEqual([
      labels
        .slice(0, 2)
        .map((l) => l.id)
        .sort(),
    ]);
    const body = byKey(await report(other.globalToken, RANGE));
    expect(Object.keys(body)).toEqual(labels.slice(0, 2).map((l) => l.name));
    expect(body[labels[0]?.name ?? ""]).toMatchObject({ conversations: 1, nextResponse: { median: 90, ...NO_HOURS } });
  });

  it("a set's id already naming other label ids fails the change rather than counting under those labels", async () => {
    const other = await messagingCustomer();
    const [mine, theirs] = await labelsOf(other, 2);
    const c = await conversationOf(other, other.sender, "2026-11-05T10:00:00Z");
    await period(other, c, {
      startedAt: "2026-11-05T10:00:00Z",
      inboundCount: 1,
      replyCount: 1,
      firstResponseSeconds: 60,
    });
    // The id the set of `mine` would take, held by the set of `theirs` (an MD5 collision, made by hand).
    await db.$executeRaw`INSERT INTO "SupportLabelSet" ("customerId", "id", "labelIds")
      VALUES (${other.customer.id}, "switchboard_support_label_set_id"(ARRAY[${mine?.id}]::text[]), ARRAY[${theirs?.id}]::text[])`;
    await expect(put(other, c, [mine ?? { id: "" }])).rejects.toThrow(/two label sets of account/);
    // Nothing changed: the conversation carries no label, its figures count unlabelled.
    expect(await db.conversationLabel.count({ where: { conversationId: c.id } })).toBe(0);
    const body = byKey(await report(other.globalToken, RANGE));
    expect(Object.keys(body)).toEqual([""]);
    expect(body[""]).toMatchObject({ conversations: 1 });
  });
});

describe("the Reports page's table by label", () => {
  it("groups by label when the picker says so, and its CSV names the unlabelled row with an empty label", async () => {
    // The 7 days up to 2026-11-10 (UTC: the account set no business hours): B1, B2 and C1.
    const now = at("2026-11-10T12:00:00Z");
    const p = memberPrincipal(t.customer.id, { role: "admin" });
    const page = await supportDashboard(p, 7, now, "label");
    expect(page.group).toBe("label");
    expect(page.byGroup.map((g) => [g.key, g.conversations, g.resolved, g.csat.responses])).toEqual([
      ["", 1, 1, 1],
      ["refund", 2, 1, 1],
    ]);
    // Every day of the 7, the days without a conversation or a close at zero.
    expect(page.byDay.map((g) => g.key)).toEqual([
      "2026-11-04",
      "2026-11-05",
      "2026-11-06",
      "2026-11-07",
      "2026-11-08",
      "2026-11-09",
      "2026-11-10",
    ]);
    const active = page.byDay.filter(
      (g) =>
        g.conversations > 0 ||
        g.resolved > 0 ||
        g.nextResponse.median !== null ||
        g.csat.responses > 0 ||
        g.slaBreaches > 0,
    );
    expect(active.map((g) => g.key)).toEqual(["2026-11-04", "2026-11-05", "2026-11-06", "2026-11-07"]);

    const { csv, fileName } = await supportCsv(p, "labels", 7, now);
    expect(fileName).toBe("support-labels-2026-11-04-to-2026-11-10.csv");
    const [header, ...rows] = csv.trim().split("\n");
    expect(header).toMatch(
      /^label,conversations,reopened,inbound,outbound,.*,slaBreaches,csatResponses,csatHappyPercent$/,
    );
    expect(rows.map((r) => r.split(",").slice(0, 2))).toEqual([
      ["", "1"],
      ["refund", "2"],
    ]);

    const refused = memberPrincipal(t.customer.id, { role: "agent" });
    await expect(supportDashboard(refused, 7, now, "label")).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    await expect(supportCsv(refused, "labels", 7, now)).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  });
});
