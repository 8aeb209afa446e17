import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import { decryptSecret } from "@/lib/core/crypto/secret-box";
import { resetEnvCache } from "@/lib/core/env";
import { db } from "@/lib/db";
import { verifyPassword } from "@/lib/domains/auth/password";
import { listRules } from "@/lib/domains/automation/service";
import { ledgerBalance } from "@/lib/domains/billing/ledger";
import { PRICING_CATEGORIES } from "@/lib/domains/billing/rate-card";
import { extrasOf, failuresByCode, listBroadcasts } from "@/lib/domains/broadcasts/service";
import { decide } from "@/lib/domains/chatbots/engine";
import { configOf } from "@/lib/domains/chatbots/serializers";
import { toPublicThreadMessage } from "@/lib/domains/conversations/serializers";
import { listConversations, listThread } from "@/lib/domains/conversations/service";
import { objectKey } from "@/lib/domains/media/objects";
import { verifyToken } from "@/lib/domains/tokens/service";
import { getStorage } from "@/lib/storage";
import { memberPrincipal } from "@/test/member-fixtures";
import { DEMO_CUSTOMER_NAME, DEMO_EMAIL, DEMO_PASSWORD } from "./constants";
import { seedDemoOnFirstRun } from "./first-run";
import { DEMO_RATES, seedDemo } from "./seed";
import { DEMO_HEADROOM_CREDIT } from "./seed-billing";
import { DEMO_BROADCASTS } from "./seed-broadcasts";

const RECORDS = 3_000;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "switchboard-demo-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

async function demoCustomerId(): Promise<string> {
  return (await db.customer.findFirstOrThrow({ where: { name: DEMO_CUSTOMER_NAME } })).id;
}

/** Row counts (and the ledger total) of everything the demo owns. */
async function counts(customerId: string) {
  const where = { customerId };
  const money = await db.billingTransaction.aggregate({ where, _sum: { amount: true } });
  return {
    customers: await db.customer.count({ where: { name: DEMO_CUSTOMER_NAME } }),
    senders: await db.sender.count({ where }),
    tokens: await db.apiToken.count({ where }),
    users: await db.user.count({ where }),
    globalRates: await db.rateCard.count({
      where: { scope: "global", pricingCategory: { in: [...PRICING_CATEGORIES] } },
    }),
    contactBooks: await db.contactBook.count({ where }),
    contacts: await db.contact.count({ where }),
    contactFields: await db.contactField.count({ where }),
    webhooks: await db.webhookDestination.count({ where }),
    activeChatbots: await db.chatbot.count({ where: { ...where, status: "ACTIVE" } }),
    templates: await db.template.count({ where }),
    approvedTemplates: await db.template.count({ where: { ...where, status: "APPROVED" } }),
    billingRecords: await db.billingRecord.count({ where }),
    conversations: await db.conversation.count({ where }),
    readyFiles: await db.media.count({ where: { ...where, status: "ready" } }),
    storedFiles: await db.mediaObject.count({ where }),
    threadEntries: await db.conversationMessage.count({ where }),
    transactions: await db.billingTransaction.count({ where }),
    broadcasts: await db.broadcast.count({ where }),
    broadcastRecipients: await db.broadcastRecipient.count({ where }),
    ledgerTotal: money._sum.amount?.toString(),
  };
}

describe("demo seed", { timeout: 120_000 }, () => {
  it("seeds on the first start, prints the login and tokens once, and keeps them in a 0600 file", async () => {
    // The supervisor sets NEXTAUTH_URL from PORT: the printed login names the real port.
    process.env.NEXTAUTH_URL = "http://localhost:3456";
    resetEnvCache();
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    await seedDemoOnFirstRun(dataDir, { billingRecords: RECORDS });
    delete process.env.NEXTAUTH_URL;
    resetEnvCache();
    const printed = log.mock.calls.flat().join("\n");
    log.mockRestore();

    const file = path.join(dataDir, "demo-credentials.json");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(fs.readFileSync(file, "utf8"));
    expect(saved.dashboard).toEqual({ url: "http://localhost:3456", email: DEMO_EMAIL, password: DEMO_PASSWORD });
    for (const text of [
      "http://localhost:3456",
      DEMO_EMAIL,
      DEMO_PASSWORD,
      saved.tokens.global.token,
      saved.tokens.scoped.token,
    ]) {
      expect(printed).toContain(text);
    }
    const global = await verifyToken(saved.tokens.global.token);
    const scoped = await verifyToken(saved.tokens.scoped.token);
    expect(global.principal).toMatchObject({ customerId: await demoCustomerId(), plan: "pro", scopedSenderId: null });
    expect(scoped.principal.scopedSenderId).toEqual(expect.any(String));

    // A second start finds the demo and does nothing.
    const again = vi.spyOn(console, "log").mockImplementation(() => {});
    await seedDemoOnFirstRun(dataDir, { billingRecords: RECORDS });
    expect(again).not.toHaveBeenCalled();
    again.mockRestore();
  });

  it("is idempotent: running it twice gives the same counts", async () => {
    const customerId = await demoCustomerId();
    const before = await counts(customerId);
    const first = await seedDemo({ billingRecords: RECORDS });
    const middle = await counts(customerId);
    const second = await seedDemo({ billingRecords: RECORDS });
    const after = await counts(customerId);
    expect(middle).toEqual(before);
    expect(after).toEqual(before);
    expect(first).toMatchObject({ customerId, created: false, tokens: {}, billingRecordsInserted: 0 });
    expect(second.user.created).toBe(false);
    expect(before).toMatchObject({
      customers: 1,
      senders: 3,
      tokens: 2,
      users: 1,
      contactBooks: 3,
      contactFields: 4,
      webhooks: 2,
      activeChatbots: 1,
      // The five demo templates and the provider's approved sample hello_world.
      templates: 6,
      approvedTemplates: 4,
      billingRecords: RECORDS,
      conversations: 5,
      readyFiles: 4,
      storedFiles: 4,
      threadEntries: 18,
      broadcasts: 2,
      // Every contact of the newsletter book, in the completed broadcast.
      broadcastRecipients: 150,
    });
    expect(before.globalRates).toBe(PRICING_CATEGORIES.length);
    expect(before.contacts).toBeGreaterThan(100);
  });

  it("creates a usable demo account", async () => {
    const customerId = await demoCustomerId();
    const customer = await db.customer.findUniqueOrThrow({ where: { id: customerId } });
    expect(customer.plan).toBe("pro");
    const senders = await db.sender.findMany({ where: { customerId } });
    expect(senders.filter((s) => s.isDefault)).toHaveLength(1);
    expect(senders.filter((s) => s.phoneNumberId === null)).toHaveLength(1);
    expect(senders.filter((s) => s.phoneNumberId && s.wabaId)).toHaveLength(2);

    const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_EMAIL } });
    expect(user.customerId).toBe(customerId);
    expect(await verifyPassword(user.passwordHash, DEMO_PASSWORD)).toBe(true);

    for (const category of PRICING_CATEGORIES) {
      const rate = await db.rateCard.findUnique({
        where: { scope_pricingCategory: { scope: "global", pricingCategory: category } },
      });
      expect(rate, category).not.toBeNull();
    }
    expect(DEMO_RATES.marketing).toBe(0.025);

    const fields = await db.contactField.findMany({ where: { customerId } });
    const contact = await db.contact.findFirstOrThrow({
      where: { customerId, contactBook: { name: "VIP customers" } },
    });
    expect(Object.keys(contact.customFields as object).every((k) => fields.some((f) => f.key === k))).toBe(true);
    expect(contact.customFields).toMatchObject({
      vip: true,
      city: expect.any(String),
      loyalty_points: expect.any(Number),
    });

    // The provider's approved sample is there from the start, no sync needed.
    const sample = await db.template.findFirstOrThrow({ where: { customerId, name: "hello_world" } });
    expect(sample).toMatchObject({ status: "APPROVED", language: "en_US", category: "UTILITY" });

    const bot = await db.chatbot.findFirstOrThrow({ where: { customerId, status: "ACTIVE" } });
    const config = configOf(bot);
    expect(decide(config, "Hello there", new Date()).matchedRule).toBe(0);
    expect(decide(config, "hours", new Date()).reply).toMatchObject({ type: "text" });
    expect(decide(config, "Agent", new Date())).toMatchObject({ matchedRule: 2, handoff: true });

    const hooks = await db.webhookDestination.findMany({ where: { customerId } });
    for (const hook of hooks) {
      expect(hook.endpointUrl).toMatch(/^https:\/\/example\.com\//);
      expect(hook.events).toContain(
        hook.name === "Delivery receipts" ? "message.status.delivered" : "message.inbound.text",
      );
      expect(hook.signingSecretEnc).not.toContain("whsec_");
      expect(Buffer.from(decryptSecret(hook.signingSecretEnc).slice(6), "base64")).toHaveLength(32);
    }
  });

  it("writes realistic billing records and the matching ledger", async () => {
    const customerId = await demoCustomerId();
    const records = await db.billingRecord.findMany({ where: { customerId } });
    const distinct = (f: (r: (typeof records)[number]) => unknown) => new Set(records.map(f));
    expect(distinct((r) => r.status)).toEqual(new Set(["accepted", "sent", "delivered", "read", "failed", "pending"]));
    expect(distinct((r) => r.templateType)).toEqual(new Set(["marketing", "utility", "authentication", "service"]));
    expect(distinct((r) => r.pricingType)).toEqual(new Set(["regular", "free_customer_service", "free_entry_point"]));
    expect(distinct((r) => r.messageId).size).toBe(RECORDS);
    expect(distinct((r) => r.createdAt.toISOString().slice(0, 10)).size).toBeGreaterThanOrEqual(85);
    const oldest = Math.min(...records.map((r) => r.createdAt.getTime()));
    expect(Date.now() - oldest).toBeLessThanOrEqual(90 * 86_400_000);
    for (const r of records) {
      expect(r.createdAt).toEqual(r.messageTimestamp);
      expect(r.messageId).toMatch(/^wamid\.demo\.\d+$/);
      expect(r.pricingModel).toBe("PMP");
      const billable = r.pricingType === "regular";
      const payable = billable && ["accepted", "delivered", "read"].includes(r.status);
      expect(r.billable).toBe(billable);
      expect(r.billingClass).toBe(payable ? "payable" : "free");
      if (billable) expect(r.rate.toNumber()).toBeGreaterThan(0);
      else expect(r.rate.toNumber()).toBe(0);
    }
    // Every payable record of a category carries that category's rate-card rate (the
    // global rates the seed set, unless another test changed a global rate first).
    const ratesByCategory = new Map<string, Set<string>>();
    for (const r of records.filter((x) => x.billable)) {
      const set = ratesByCategory.get(r.pricingCategory ?? "") ?? new Set<string>();
      set.add(r.rate.toString());
      ratesByCategory.set(r.pricingCategory ?? "", set);
    }
    for (const set of ratesByCategory.values()) expect(set.size).toBe(1);
    expect(ratesByCategory.size).toBeGreaterThanOrEqual(4);

    const ledger = await db.billingTransaction.findMany({ where: { customerId } });
    const debits = ledger.filter((t) => t.type === "debit");
    const payable = records.filter((r) => r.billingClass === "payable");
    expect(debits).toHaveLength(payable.length);
    const byRecord = new Map(payable.map((r) => [r.id, r]));
    for (const d of debits) {
      const record = byRecord.get(d.billingRecordId ?? "");
      expect(d.idempotencyKey).toBe(`debit:${d.billingRecordId}`);
      expect(d.amount.toString()).toBe(record?.rate.toString());
    }
    const sum = (type: string) => ledger.filter((t) => t.type === type).reduce((s, t) => s + t.amount.toNumber(), 0);
    expect(ledger.filter((t) => t.type === "credit").length).toBeGreaterThanOrEqual(3);
    expect(ledger.filter((t) => t.type === "refund")).toHaveLength(1);
    expect(ledger.filter((t) => t.type === "adjustment")).toHaveLength(1);
    // Credit to send with now (broadcasts), well above the low-balance threshold.
    const balance = sum("credit") + sum("refund") + sum("adjustment") - sum("debit");
    expect(balance).toBeGreaterThanOrEqual(DEMO_HEADROOM_CREDIT);
    const demo = await db.customer.findUniqueOrThrow({ where: { id: customerId } });
    expect(balance).toBeGreaterThan(demo.lowBalanceThreshold?.toNumber() ?? 0);
  });

  it("seeds conversations with history: an open window with unread messages and a closed one", async () => {
    const customerId = await demoCustomerId();
    const p = memberPrincipal(customerId);
    const { conversations } = await listConversations(p, undefined, { page: 1, limit: 50 }, "inbox");
    const [first] = conversations;
    expect(first).toMatchObject({ contactName: "Ana Ruiz", status: "OPEN", unreadCount: 2 });
    expect(first?.windowExpiresAt?.getTime()).toBeGreaterThan(Date.now());
    const closed = conversations.find((c) => c.status === "CLOSED");
    expect(closed?.windowExpiresAt?.getTime()).toBeLessThan(Date.now());
    const thread = await listThread(p, undefined, first?.id ?? "", { page: 1, limit: 50 });
    const statuses = thread.messages.map((m) => toPublicThreadMessage(m).status);
    expect(statuses).toEqual(["received", "received", "read", "received", "read"]);
  });

  it("seeds conversations with files: a contact's photos and receipt, an agent's return label, stored and ready", async () => {
    const customerId = await demoCustomerId();
    const p = memberPrincipal(customerId);
    const { conversations } = await listConversations(p, undefined, { page: 1, limit: 50 }, "inbox");
    const files = async (name: string) => {
      const c = conversations.find((x) => x.contactName === name);
      const thread = await listThread(p, undefined, c?.id ?? "", { page: 1, limit: 50 });
      // Oldest first (the thread pages newest first).
      return [...thread.messages].reverse().flatMap((m) => {
        const e = toPublicThreadMessage(m);
        return e.media ? [{ direction: e.direction, ...e.media }] : [];
      });
    };
    const dana = await files("Dana Okafor");
    expect(dana).toMatchObject([
      {
        direction: "inbound",
        kind: "image",
        mimeType: "image/png",
        status: "ready",
        caption: "This is how it came out of the box",
      },
      {
        direction: "inbound",
        kind: "document",
        mimeType: "application/pdf",
        filename: "receipt-1042.pdf",
        status: "ready",
      },
      {
        direction: "outbound",
        kind: "document",
        mimeType: "application/pdf",
        filename: "return-label-5521.pdf",
        status: "ready",
      },
    ]);
    expect(await files("Emil Novak")).toMatchObject([{ direction: "inbound", kind: "image", status: "ready" }]);
    // The bytes are in the store under each file's sha256, and are what the facts say.
    for (const f of [...dana, ...(await files("Emil Novak"))]) {
      const stream = await getStorage().read(objectKey(customerId, f.sha256 ?? ""));
      const bytes = stream ? Buffer.concat(await stream.toArray()) : Buffer.alloc(0);
      expect(bytes.length, f.mediaId).toBe(f.fileSize);
      expect(createHash("sha256").update(bytes).digest("hex")).toBe(f.sha256);
    }
  });

  it("seeds two automation rules the rules API reads: refund routing and an unanswered nudge by note", async () => {
    const customerId = await demoCustomerId();
    const { rules } = await listRules(memberPrincipal(customerId), { page: 1, limit: 10 });
    expect(rules.map((r) => [r.name, r.triggerEvent, r.enabled]).sort()).toEqual([
      ["Refund routing", "message.inbound", true],
      ["Unanswered for 30 minutes", "conversation.unanswered", true],
    ]);
  });

  it("seeds a completed broadcast with its results and a scheduled one the balance covers", async () => {
    const customerId = await demoCustomerId();
    const p = memberPrincipal(customerId);
    const { broadcasts } = await listBroadcasts(p, undefined, { page: 1, limit: 10 });
    const done = broadcasts.find((b) => b.name === DEMO_BROADCASTS.completed.name);
    const later = broadcasts.find((b) => b.name === DEMO_BROADCASTS.scheduled.name);
    expect(done).toMatchObject({ status: "COMPLETED", templateName: "spring_sale" });
    expect(done?.completedAt?.getTime()).toBeLessThan(Date.now());
    expect(later).toMatchObject({ status: "SCHEDULED", startedAt: null });
    expect(later?.scheduledAt?.getTime()).toBeGreaterThan(Date.now() + 86_400_000);

    const extras = await extrasOf(
      customerId,
      [done, later].flatMap((b) => (b ? [b] : [])),
    );
    const counts = extras.get(done?.id ?? "")?.counts;
    expect(counts?.total).toBe(150);
    for (const status of ["read", "delivered", "sent", "failed", "skipped"] as const) {
      expect(counts?.[status], status).toBeGreaterThan(0);
    }
    expect(counts?.queued).toBe(0);
    expect(counts?.sending).toBe(0);
    expect(counts?.replied).toBeGreaterThan(0);
    expect(extras.get(later?.id ?? "")?.counts.total).toBe(0);
    // Failures carry the provider's code; skipped ones their reason.
    const failures = await failuresByCode(p, undefined, done?.id ?? "");
    expect(failures.map((f) => f.errorCode).sort()).toEqual([131026, 131049, 131050]);
    const skipped = await db.broadcastRecipient.findMany({ where: { broadcastId: done?.id, status: "skipped" } });
    expect(skipped.every((r) => r.skipReason === "blacklisted")).toBe(true);
    // The scheduled one's estimate is covered by the demo's credit.
    const estimate = later?.estimate as { cost: number; recipients: number } | null;
    expect(estimate?.recipients).toBe(40);
    expect((await ledgerBalance(customerId)).toNumber()).toBeGreaterThan(estimate?.cost ?? Number.POSITIVE_INFINITY);
  });
});
