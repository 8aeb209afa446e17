// Generates the demo's billing records: realistic mixes of statuses, categories and pricing
// types over 90 days with daily variation (weekday rhythm, growth, campaign spikes).
//
// Payable rule: lib/domains/billing/payable.ts, as for ingested callbacks. A `regular` pricing
// type is billable and carries its category's rate; free pricing types
// (free_customer_service, free_entry_point) are not billable and have rate 0.
import { createHash, randomBytes } from "node:crypto";
import { billingClassOf } from "@/lib/domains/billing/payable";
import { templateTypeFor } from "@/lib/domains/billing/pricing";
import { seededRandom } from "./random";

export type DemoSender = { id: string; weight: number };

export type BillingRow = {
  i: string; // id
  s: string; // senderId
  m: string; // messageId
  r: string; // recipientId
  st: string; // status
  b: boolean; // billable
  c: "payable" | "free";
  pc: string; // pricingCategory
  tt: string | null; // templateType
  pt: string; // pricingType
  rt: string; // rate
  cv: string; // conversationId
  co: string; // conversationOriginType
  ec: number | null;
  et: string | null;
  t: string; // messageTimestamp == createdAt
  sa: string | null;
  da: string | null;
  ra: string | null;
  fa: string | null;
  u: string; // updatedAt
};

export const DEMO_DAYS = 90;
const DAY_MS = 86_400_000;

const CATEGORY_MIX = [
  ["marketing", 38],
  ["utility", 28],
  ["authentication", 16],
  ["service", 12],
  ["marketing_lite", 3],
  ["authentication_international", 2],
  ["referral_conversion", 1],
] as const;

const STATUS_MIX = [
  ["read", 47],
  ["delivered", 30],
  ["sent", 9],
  ["accepted", 4],
  ["failed", 7],
  ["pending", 3],
] as const;

const ERRORS = [
  [131026, "Message undeliverable"],
  [131047, "Re-engagement message"],
  [131049, "Meta chose not to deliver"],
  [131050, "User has stopped marketing messages"],
  [131031, "Business account locked"],
] as const;

// About 3,000 recipients (provider format: digits, no "+"), so conversations repeat.
const RECIPIENTS = 3_000;
const AREA_CODES = [212, 312, 415, 512, 617, 702, 786, 917];

// Business hours get most of the traffic.
const HOUR_WEIGHTS = [1, 1, 1, 1, 1, 2, 3, 5, 8, 10, 10, 10, 9, 9, 10, 10, 9, 8, 7, 6, 5, 4, 3, 2].map(
  (w, h) => [h, w] as const,
);

function pricingTypeFor(category: string, rand: () => number): string {
  if (category === "service") return "free_customer_service";
  if (category === "referral_conversion") return "free_entry_point";
  // Some utility templates land inside an open customer-service window and are free.
  if (category === "utility" && rand() < 0.15) return "free_customer_service";
  return "regular";
}

/** How many messages each of the 90 days gets (deterministic). */
export function dailyCounts(total: number, firstDay: number, seed = 90): number[] {
  const rnd = seededRandom(seed);
  const weights = Array.from({ length: DEMO_DAYS }, (_, d) => {
    const dow = new Date(firstDay + d * DAY_MS).getUTCDay();
    const weekend = dow === 0 || dow === 6 ? 0.55 : 1;
    const growth = 1 + (0.6 * d) / (DEMO_DAYS - 1);
    const campaign = rnd.next() < 0.08 ? 2.2 : 1;
    return weekend * growth * campaign * (0.8 + 0.4 * rnd.next());
  });
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((total * w) / sum));
  let rest = total - counts.reduce((a, b) => a + b, 0);
  for (let d = DEMO_DAYS - 1; rest > 0; d = (d + DEMO_DAYS - 1) % DEMO_DAYS, rest--) counts[d] += 1;
  return counts;
}

/**
 * Billing rows `wamid.demo.<from>` .. `wamid.demo.<to - 1>` of a demo of `total` records
 * ending at `now`. `rates` maps pricing category -> rate (a decimal string).
 */
export function* billingRows(options: {
  total: number;
  now: Date;
  senders: DemoSender[];
  rates: Map<string, string>;
}): Generator<BillingRow> {
  const { total, now, senders, rates } = options;
  const rnd = seededRandom(20_261_122);
  const firstDay = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (DEMO_DAYS - 1) * DAY_MS;
  const counts = dailyCounts(total, firstDay);
  const senderMix = senders.map((s) => [s.id, s.weight] as const);
  const iso = (ms: number) => new Date(ms).toISOString();
  let n = 0;
  for (let d = 0; d < DEMO_DAYS; d++) {
    const dayStart = firstDay + d * DAY_MS;
    const dayLength = Math.max(1, Math.min(DAY_MS, now.getTime() - dayStart));
    const times = Array.from({ length: counts[d] ?? 0 }, () => {
      const hour = rnd.pick(HOUR_WEIGHTS);
      const within = ((hour + rnd.next()) / 24) * dayLength;
      return Math.floor(dayStart + within);
    }).sort((a, b) => a - b);
    for (const at of times) {
      const category = rnd.pick(CATEGORY_MIX);
      const pricingType = pricingTypeFor(category, rnd.next);
      const status = rnd.pick(STATUS_MIX);
      const who = rnd.int(0, RECIPIENTS - 1);
      const recipient = `1${AREA_CODES[who % AREA_CODES.length]}555${String(who).padStart(4, "0")}`;
      const billable = pricingType === "regular";
      const billingClass = billingClassOf(billable, status);
      const error = status === "failed" ? rnd.pick(ERRORS.map((e) => [e, 1] as const)) : null;
      const sentAt = status === "pending" || status === "accepted" ? null : at + rnd.int(500, 3_000);
      const deliveredAt =
        sentAt && (status === "delivered" || status === "read") ? sentAt + rnd.int(1_000, 20_000) : null;
      const readAt = deliveredAt && status === "read" ? deliveredAt + rnd.int(30_000, 6 * 3_600_000) : null;
      const failedAt = status === "failed" ? at + rnd.int(1_000, 60_000) : null;
      const last = Math.max(at, sentAt ?? 0, deliveredAt ?? 0, readAt ?? 0, failedAt ?? 0);
      const origin = category.startsWith("authentication")
        ? "authentication"
        : category === "marketing_lite"
          ? "marketing"
          : category;
      // One conversation per recipient, origin and day.
      const conversation = createHash("sha1").update(`${recipient}:${origin}:${d}`).digest("hex").slice(0, 24);
      yield {
        i: `c${at.toString(36)}${randomBytes(8).toString("hex")}`,
        s: rnd.pick(senderMix),
        m: `wamid.demo.${n}`,
        r: recipient,
        st: status,
        b: billable,
        c: billingClass,
        pc: category,
        tt: templateTypeFor(category),
        pt: pricingType,
        rt: billable ? (rates.get(category) ?? "0") : "0",
        cv: `conv_demo_${conversation}`,
        co: origin,
        ec: error ? error[0] : null,
        et: error ? error[1] : null,
        t: iso(at),
        sa: sentAt ? iso(sentAt) : null,
        da: deliveredAt ? iso(deliveredAt) : null,
        ra: readAt ? iso(readAt) : null,
        fa: failedAt ? iso(failedAt) : null,
        u: iso(Math.min(last, now.getTime())),
      };
      n += 1;
    }
  }
}
