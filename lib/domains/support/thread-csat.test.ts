// The contact's CSAT answer in the inbox thread (docs/reports.md "CSAT"): the latest answered
// survey's face, comment and time through the thread's session route, checked as the thread is
// (the inbox permission, the member's senders) and never another account's.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { contactWrites } from "@/test/conversation-fixtures";
import { uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { nextRequest } from "@/test/next-request-double";
import { threadCsat } from "./csat-report";

const threadRoute = await import("@/app/api/dashboard/[...path]/route");

type Customer = Awaited<ReturnType<typeof messagingCustomer>>;

async function conversationWith(t: Customer, sender: Customer["sender"]) {
  const contact = uniquePhone();
  await contactWrites(sender, contact, "Help");
  return db.supportPeriod.findFirstOrThrow({
    where: { customerId: t.customer.id, conversation: { contactPhoneNumber: contact } },
  });
}

/** A survey of the period, answered with `score` at `at` (or not answered: null). */
function survey(
  t: Customer,
  period: { id: string; senderId: string; conversationId: string },
  score: number | null,
  at: string,
  comment: string | null = null,
) {
  return db.csatSurvey.create({
    data: {
      id: `csat_${randomBytes(8).toString("hex")}`,
      customerId: t.customer.id,
      senderId: period.senderId,
      conversationId: period.conversationId,
      periodId: period.id,
      closedAt: new Date(at),
      status: "SENT",
      score,
      comment,
      respondedAt: score === null ? null : new Date(at),
    },
  });
}

let t: Customer;
let answered: { id: string; senderId: string; conversationId: string };
let silent: { id: string; senderId: string; conversationId: string };

beforeAll(async () => {
  t = await messagingCustomer();
  answered = await conversationWith(t, t.sender);
  await survey(t, answered, 1, "2026-11-20T10:00:00Z", "Too slow");
  // A later period of the same conversation, answered happily: the thread shows the latest.
  const later = await db.supportPeriod.create({
    data: {
      id: `sp_${randomBytes(8).toString("hex")}`,
      customerId: t.customer.id,
      senderId: answered.senderId,
      conversationId: answered.conversationId,
      startedAt: new Date("2026-11-21T09:00:00Z"),
      reopened: true,
    },
  });
  await survey(t, { ...later, conversationId: answered.conversationId }, 3, "2026-11-21T10:00:00Z", "Thanks!");
  silent = await conversationWith(t, t.otherSender);
  await survey(t, silent, null, "2026-11-21T10:00:00Z");
});

describe("threadCsat", () => {
  it("the latest answer's face, comment and time; null without an answer", async () => {
    const owner = memberPrincipal(t.customer.id);
    expect(await threadCsat(owner, answered.conversationId)).toEqual({
      score: 3,
      answer: "😀 Happy",
      comment: "Thanks!",
      at: "2026-11-21T10:00:00.000Z",
    });
    expect(await threadCsat(owner, silent.conversationId)).toBeNull();
  });

  it("is checked as the thread: the inbox permission, the member's senders, the account", async () => {
    const agent = memberPrincipal(t.customer.id, { role: "agent" });
    expect((await threadCsat(agent, answered.conversationId))?.score).toBe(3);
    const elsewhere = memberPrincipal(t.customer.id, { role: "agent", senderIds: [t.otherSender.id] });
    expect(await threadCsat(elsewhere, answered.conversationId)).toBeNull();
    for (const role of ["developer", "billing"] as const) {
      await expect(threadCsat(memberPrincipal(t.customer.id, { role }), answered.conversationId)).rejects.toMatchObject(
        { code: "PERMISSION_DENIED" },
      );
    }
    const other = await messagingCustomer();
    expect(await threadCsat(memberPrincipal(other.customer.id), answered.conversationId)).toBeNull();
  });
});

describe("GET /api/dashboard/conversations/{uid}", () => {
  it("carries the answer beside the thread; another account's uid is not found", async () => {
    const uid = answered.conversationId;
    const ctx = { params: Promise.resolve({ uid }) };
    const request = () => new Request(`http://dash.test/api/dashboard/conversations/${uid}`);
    nextRequest.principal = memberPrincipal(t.customer.id, { role: "agent" });
    const res = await threadRoute.GET(request(), ctx);
    expect(res.status).toBe(200);
    const body = (await res.json()).data;
    expect(body.conversation.conversationUid).toBe(uid);
    expect(body.csat).toMatchObject({ score: 3, answer: "😀 Happy", comment: "Thanks!" });

    const other = await messagingCustomer();
    nextRequest.principal = memberPrincipal(other.customer.id);
    const theirs = await threadRoute.GET(request(), { params: Promise.resolve({ uid }) });
    expect(theirs.status).toBe(404);
    expect(JSON.stringify(await theirs.json())).not.toContain("Thanks!");
  });
});
