// What "Retry failed" would queue now (lib/domains/broadcasts/retryable.ts), which the
// broadcast page reads to offer the retry only when something can be retried: the codes a
// later attempt gets past, 131049 only 24 hours after the failure, never a code about the
// number or the template; and "Retry failed" itself queues exactly that many.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { addCredit } from "@/lib/domains/billing/credits";
import { createTestCustomer, uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { addTemplate } from "@/test/messaging-fixtures";
import { retryFailedRecipients } from "./retry-failed";
import { retryableFailures } from "./retryable";

const HOUR = 3_600_000;

async function completedWithFailures(failures: { code: number; hoursAgo: number }[]) {
  const t = await createTestCustomer();
  // The retry's balance check prices the recipients at whatever rates other tests set.
  await addCredit({ customerId: t.customer.id, amount: "100" });
  await addTemplate(t.customer.id, { name: "spring_sale", category: "UTILITY" });
  const broadcast = await db.broadcast.create({
    data: {
      id: `bc_${uniquePhone().slice(1)}`,
      customerId: t.customer.id,
      senderId: t.sender.id,
      name: "Spring sale",
      status: "COMPLETED",
      templateName: "spring_sale",
      templateLanguage: "en",
      audience: { contactBookUids: [], filters: [], phoneNumbers: [] },
      variables: { body: [], header: [] },
    },
  });
  await db.broadcastRecipient.createMany({
    data: failures.map((f) => ({
      broadcastId: broadcast.id,
      customerId: t.customer.id,
      senderId: t.sender.id,
      phoneNumber: uniquePhone(),
      status: "failed" as const,
      errorCode: f.code,
      failedAt: new Date(Date.now() - f.hoursAgo * HOUR),
    })),
  });
  const p: Principal = memberPrincipal(t.customer.id);
  return { p, uid: broadcast.id };
}

describe("retryable failures of a broadcast", () => {
  it("counts only what a retry queues now, and when the marketing-cap failures may be retried", async () => {
    const { p, uid } = await completedWithFailures([
      { code: 131026, hoursAgo: 1 }, // the number cannot receive: never retried
      { code: 132001, hoursAgo: 1 }, // the template: never retried
      { code: 131049, hoursAgo: 2 }, // the marketing cap: from 22 hours from now
      { code: 131049, hoursAgo: 72 }, // the marketing cap, long ago: now
    ]);
    const before = await retryableFailures(p, uid);
    expect(before).toMatchObject({ now: 1, waiting: 1 });
    expect(Math.abs((before.retryableAt?.getTime() ?? 0) - (Date.now() + 22 * HOUR))).toBeLessThan(60_000);

    const retried = await retryFailedRecipients(p, undefined, uid);
    expect(retried.requeued).toBe(before.now);
    expect(await retryableFailures(p, uid)).toMatchObject({ now: 0, waiting: 1 });
  });

  it("is nothing for failures no retry gets past, and never counts another account's", async () => {
    const { p, uid } = await completedWithFailures([{ code: 131026, hoursAgo: 5 }]);
    expect(await retryableFailures(p, uid)).toEqual({ now: 0, waiting: 0, retryableAt: null });
    const other = await completedWithFailures([{ code: 131000, hoursAgo: 1 }]);
    expect(await retryableFailures(other.p, other.uid)).toMatchObject({ now: 1 });
    expect(await retryableFailures(p, other.uid)).toEqual({ now: 0, waiting: 0, retryableAt: null });
  });
});
