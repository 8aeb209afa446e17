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
import { extrasOf } from "@/lib/domains/broadcasts/extras";
import { countSegment, listSegments } from "@/lib/domains/broadcasts/segments";
import { failuresByCode, listBroadcasts } from "@/lib/domains/broadcasts/service";
import { businessSecondsBetween } from "@/lib/domains/business-hours/hours";
import { businessHoursOf } from "@/lib/domains/business-hours/service";
import { decide } from "@/lib/domains/chatbots/engine";
import { configOf } from "@/lib/domains/chatbots/serializers";
import { toPublicThreadMessage } from "@/lib/domains/conversations/serializers";
import { listConversations, listThread } from "@/lib/domains/conversations/service";
import { contactLabels } from "@/lib/domains/labels/apply";
import { labelsNamed, listLabels } from "@/lib/domains/labels/service";
import { objectKey } from "@/lib/domains/media/objects";
import { listCsatResponses } from "@/lib/domains/support/csat-report";
import { CsatListQuery } from "@/lib/domains/support/csat-schemas";
import { supportHeatmap, supportReport } from "@/lib/domains/support/report";
import { verifyToken } from "@/lib/domains/tokens/service";
import { getStorage } from "@/lib/storage";
import { memberPrincipal } from "@/test/member-fixtures";
import { DEMO_CUSTOMER_NAME, DEMO_EMAIL, DEMO_PASSWORD } from "./constants";
import { seedDemoOnFirstRun } from "./first-run";
import { DEMO_RATES, seedDemo } from "./seed";
import { DEMO_HEADROOM_CREDIT } from "./seed-billing";
import { DEMO_BROADCASTS } from "./seed-broadcasts";
import { DEMO_BOT_HOURS, DEMO_BOT_MENU, DEMO_CHATBOT_NAME } from "./seed-chatbots";
import { DEMO_SLA_POLICY } from "./seed-support";
import { HISTORY_PREFIX } from "./support-history";

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
    supportPeriods: await db.supportPeriod.count({ where }),
    supportResponses: await db.supportResponse.count({ where }),
    slaPolicies: await db.slaPolicy.count({ where }),
    slaBreaches: await db.slaBreach.count({ where }),
    csatSurveys: await db.csatSurvey.count({ where }),
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
      readyFiles: 4,
      storedFiles: 4,
      broadcasts: 2,
      slaPolicies: 1,
      // Every contact of the newsletter book, in the completed broadcast.
      broadcastRecipients: 150,
    });
    expect(before.globalRates).toBe(PRICING_CATEGORIES.length);
    expect(before.contacts).toBeGreaterThan(100);
    // The six conversations of the inbox and their thread entries (22 lines, and the contact's two
    // reactions, each attached to its message, not a line), beside the support history's.
    const history = { customerId, contactPhoneNumber: { startsWith: HISTORY_PREFIX } };
    const historyConversations = await db.conversation.count({ where: history });
    const historyEntries = await db.conversationMessage.count({ where: { customerId, conversation: history } });
    expect(historyConversations).toBeGreaterThanOrEqual(30);
    expect(before.conversations - historyConversations).toBe(6);
    expect(before.threadEntries - historyEntries).toBe(24);
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
    // A greeting gets the button menu; the bot branches on the tapped button's id, never on its title.
    expect(decide(config, "Hello there", new Date())).toMatchObject({
      matchedRule: 0,
      reply: { type: "buttons", interactive: DEMO_BOT_MENU },
    });
    expect(decide(config, "hours", new Date()).reply).toMatchObject({ type: "text" });
    expect(decide(config, "Agent", new Date())).toMatchObject({ matchedRule: 2, handoff: true });
    const tapped = (id: string) => {
      const button = DEMO_BOT_MENU.buttons.find((b) => b.id === id);
      return decide(config, button?.title ?? "", new Date(), id);
    };
    expect(tapped("hours")).toMatchObject({ matchedRule: 3, reply: { type: "text", text: DEMO_BOT_HOURS } });
    expect(tapped("track")).toMatchObject({ matchedRule: 4, handoff: false });
    expect(tapped("agent")).toMatchObject({ matchedRule: 5, handoff: true });
    expect(decide(config, "Opening hours", new Date()).matchedRule).toBeNull();

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
    const closed = conversations.find((c) => c.contactName === "Ben Carter");
    expect(closed?.status).toBe("CLOSED");
    expect(closed?.windowExpiresAt?.getTime()).toBeLessThan(Date.now());
    const thread = await listThread(p, undefined, first?.id ?? "", { page: 1, limit: 50 });
    const statuses = thread.messages.map((m) => toPublicThreadMessage(m).status);
    expect(statuses).toEqual(["received", "received", "read", "received", "read"]);
  });

  it("records the inbox conversations' support periods as they happened: those waiting for a reply wait, so an SLA policy made at first start counts from then", async () => {
    const customerId = await demoCustomerId();
    const periodOf = async (name: string) => {
      const c = await db.conversation.findFirstOrThrow({ where: { customerId, contactName: name } });
      const periods = await db.supportPeriod.findMany({ where: { conversationId: c.id } });
      expect(periods).toHaveLength(1);
      const [period] = periods;
      const lastInbound = await db.conversationMessage.findFirst({
        where: { conversationId: c.id, direction: "inbound", type: { not: "reaction" } },
        orderBy: { createdAt: "desc" },
      });
      return { period, lastInbound };
    };
    // Ana: answered by the member 5 minutes after asking, then two new questions wait from the first of them.
    const ana = await periodOf("Ana Ruiz");
    expect(ana.period).toMatchObject({ firstResponder: DEMO_EMAIL, firstResponseSeconds: 300, resolvedAt: null });
    expect(ana.period?.waitingSince?.getTime()).toBe((ana.lastInbound?.createdAt.getTime() ?? 0) - 60_000);
    // Dana: her photos answered after 30 minutes; her thanks waits.
    const dana = await periodOf("Dana Okafor");
    expect(dana.period).toMatchObject({ firstResponder: DEMO_EMAIL, firstResponseSeconds: 30 * 60, resolvedAt: null });
    expect(dana.period?.waitingSince).toEqual(dana.lastInbound?.createdAt);
    // Ben: answered and closed by the member.
    const ben = await periodOf("Ben Carter");
    expect(ben.period).toMatchObject({ firstResponder: DEMO_EMAIL, closedBy: DEMO_EMAIL, waitingSince: null });
    expect(ben.period?.resolvedAt).not.toBeNull();
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

  it("seeds the bot's button menu tapped and answered, reactions of both sides and quoted replies", async () => {
    const customerId = await demoCustomerId();
    const p = memberPrincipal(customerId);
    const { conversations } = await listConversations(p, undefined, { page: 1, limit: 50 }, "inbox");
    const thread = async (name: string) => {
      const c = conversations.find((x) => x.contactName === name);
      expect(c, name).toBeDefined();
      const t = await listThread(p, undefined, c?.id ?? "", { page: 1, limit: 50 });
      // Oldest first (the thread pages newest first).
      return [...t.messages].reverse().map(toPublicThreadMessage);
    };
    const textOf = (e: { content: Record<string, unknown> }) => (e.content.text as { body?: string } | undefined)?.body;

    const farah = await thread("Farah Haddad");
    expect(farah.map((e) => `${e.direction} ${e.type} ${e.sentBy}`)).toEqual([
      "inbound text contact",
      "outbound interactive chatbot",
      "inbound interactive contact",
      "outbound text chatbot",
    ]);
    const [, menu, tap, answer] = farah;
    expect(menu?.interactive).toMatchObject({
      type: "buttons",
      body: DEMO_BOT_MENU.body,
      buttons: DEMO_BOT_MENU.buttons,
    });
    expect(tap).toMatchObject({
      reply: { type: "button_reply", id: "hours", title: "Opening hours" },
      replyTo: { messageId: menu?.messageUid, preview: DEMO_BOT_MENU.body },
    });
    // The answer is the demo bot's own for the tapped id.
    const bot = configOf(await db.chatbot.findFirstOrThrow({ where: { customerId, name: DEMO_CHATBOT_NAME } }));
    const decision = decide(bot, tap?.reply?.title ?? "", new Date(), tap?.reply?.id);
    expect(decision.reply).toEqual({ type: "text", text: answer ? textOf(answer) : "" });
    expect(answer?.reactions).toMatchObject([{ by: "contact", emoji: "🙏" }]);
    expect(conversations.find((c) => c.contactName === "Farah Haddad")?.lastMessagePreview).toMatch(
      /^Reacted 🙏 to: We are open/,
    );

    const ana = await thread("Ana Ruiz");
    const answered = ana.find((e) => e.direction === "outbound" && e.type === "text");
    expect(answered?.reactions).toMatchObject([{ by: "contact", emoji: "👍" }]);

    const dana = await thread("Dana Okafor");
    const label = dana.find((e) => e.media?.filename === "return-label-5521.pdf");
    const thanks = dana.find((e) => textOf(e) === "Printed it, thank you!");
    expect(label?.providerMessageId).toMatch(/^wamid\./);
    expect(thanks).toMatchObject({
      replyTo: { messageId: label?.messageUid, providerMessageId: label?.providerMessageId },
      reactions: [{ by: "business", emoji: "❤️" }],
    });
    // A reaction shows on its message, never as a line of the thread.
    expect([...farah, ...ana, ...dana].filter((e) => e.type === "reaction")).toEqual([]);
  });

  it("seeds three automation rules the rules API reads: refund routing, VIP labelling and an unanswered nudge by note", async () => {
    const customerId = await demoCustomerId();
    const { rules } = await listRules(memberPrincipal(customerId), { page: 1, limit: 10 });
    expect(rules.map((r) => [r.name, r.triggerEvent, r.enabled]).sort()).toEqual([
      ["Refund routing", "message.inbound", true],
      ["Unanswered for 30 minutes", "conversation.unanswered", true],
      ["VIP labelling", "conversation.created", true],
    ]);
  });

  it("seeds two segments the segments service lists, each counting someone", async () => {
    const customerId = await demoCustomerId();
    const p = memberPrincipal(customerId);
    const { segments } = await listSegments(p, { page: 1, limit: 10 });
    expect(segments.map((s) => s.name).sort()).toEqual(["VIP-labelled contacts", "Wrote in the last 30 days"]);
    for (const s of segments) expect(await countSegment(p, s.id), s.name).toBeGreaterThan(0);
  });

  it("seeds labels the labels service lists, on a few conversations and Ana's number, and the rules' labels exist", async () => {
    const customerId = await demoCustomerId();
    const p = memberPrincipal(customerId);
    expect((await listLabels(p)).map((l) => [l.name, l.color])).toEqual([
      ["follow-up", "yellow"],
      ["refund", "red"],
      ["VIP", "purple"],
    ]);
    // The support history's conversations carry labels too (the next test).
    const labelled = await db.conversation.findMany({
      where: { customerId, labels: { some: {} }, NOT: { contactPhoneNumber: { startsWith: HISTORY_PREFIX } } },
      select: {
        contactName: true,
        contactPhoneNumber: true,
        labels: { select: { label: { select: { name: true } } } },
      },
    });
    expect(Object.fromEntries(labelled.map((c) => [c.contactName, c.labels.map((l) => l.label.name)]))).toEqual({
      "Ana Ruiz": ["VIP"],
      "Ben Carter": ["follow-up"],
      "Dana Okafor": ["refund"],
    });
    const ana = labelled.find((c) => c.contactName === "Ana Ruiz")?.contactPhoneNumber ?? "";
    expect(await contactLabels(db, customerId, ana)).toEqual(["VIP"]);
    // Every label a demo rule puts on is one of the account's (the actions would fail otherwise).
    const { rules } = await listRules(p, { page: 1, limit: 10 });
    const named = rules.flatMap((r) =>
      (r.actions as { type: string; labels?: string[] }[]).flatMap((a) => (a.type === "label" ? (a.labels ?? []) : [])),
    );
    expect(new Set(named)).toEqual(new Set(["refund", "VIP"]));
    await expect(labelsNamed(db, customerId, named)).resolves.toHaveLength(2);
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

  it("seeds 90 days of support history: the reports, the heatmap and the CSAT answers are non-empty and agree with the threads", async () => {
    const customerId = await demoCustomerId();
    const p = memberPrincipal(customerId);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const range = { dateFrom: day(Date.now() - 89 * 86_400_000), dateTo: day(Date.now()), timeZone: "UTC" };
    const report = await supportReport(p, undefined, { ...range, groupBy: "day" });
    const { totals } = report;
    expect(totals.conversations).toBeGreaterThan(150);
    expect(totals.reopened).toBeGreaterThan(50);
    expect(totals.resolved).toBeGreaterThan(150);
    expect(totals.firstResponse.median).toBeGreaterThan(0);
    expect(totals.firstResponse.p90).toBeGreaterThan(totals.firstResponse.median ?? 0);
    expect(totals.nextResponse.median).toBeGreaterThan(0);
    expect(totals.resolution.median).toBeGreaterThan(0);
    expect(totals.slaBreaches).toBeGreaterThan(0);
    expect(totals.csat.responses).toBeGreaterThan(20);
    expect(report.groups.filter((g) => g.conversations > 0).length).toBeGreaterThan(60);

    // Each period's figures are what its own thread says (periods.ts replayed the steps).
    const history = { customerId, contactPhoneNumber: { startsWith: HISTORY_PREFIX } };
    const periods = await db.supportPeriod.findMany({
      where: { customerId, conversation: history },
      orderBy: { startedAt: "asc" },
    });
    const entries = await db.conversationMessage.findMany({
      where: { customerId, conversation: history },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    // The rest are the inbox conversations' periods (the last few days, seed-conversations.ts).
    const inbox = await db.supportPeriod.findMany({ where: { customerId, NOT: { conversation: history } } });
    expect(inbox.length).toBeGreaterThan(0);
    expect(periods.length + inbox.length).toBe(totals.conversations);
    // The demo's business hours were set before the replay: each figure's business seconds are
    // hours.ts's count of the same span (docs/reports.md "Business hours").
    const hours = await businessHoursOf(customerId);
    expect(hours).not.toBeNull();
    expect(totals.firstResponse.businessMedian).not.toBeNull();
    expect(totals.firstResponse.businessMedian).toBeLessThanOrEqual(totals.firstResponse.median ?? 0);
    expect(totals.resolution.businessP90).toBeLessThanOrEqual(totals.resolution.p90 ?? 0);
    const business = (from: Date, to: Date) => (hours ? businessSecondsBetween(from, to, hours) : null);
    const seen = new Set<string>();
    for (const period of periods) {
      const end = period.resolvedAt ?? new Date();
      const mine = entries.filter(
        (e) => e.conversationId === period.conversationId && e.createdAt >= period.startedAt && e.createdAt <= end,
      );
      const persons = mine.filter((e) => e.direction === "outbound" && ["dashboard", "api"].includes(e.sentBy));
      const [first] = persons;
      // On the chatbot's sender the wait starts at its hand-off (its last message before a person's).
      const bot = mine.filter((e) => e.sentBy === "chatbot" && first && e.createdAt <= first.createdAt).at(-1);
      const waited = bot?.createdAt ?? period.startedAt;
      const seconds = (a: Date, b: Date) => Math.floor((a.getTime() - b.getTime()) / 1000);
      expect(period.resolvedAt, period.id).not.toBeNull();
      expect(period.inboundCount, period.id).toBe(mine.filter((e) => e.direction === "inbound").length);
      expect(period.replyCount, period.id).toBe(persons.length);
      expect(period.firstResponseSeconds, period.id).toBe(first ? seconds(first.createdAt, waited) : null);
      expect(period.firstResponder, period.id).toBe(first?.sentBy === "api" ? "api" : (first?.sentByLabel ?? null));
      expect(period.resolutionSeconds, period.id).toBe(seconds(end, period.startedAt));
      expect(period.firstResponseBusinessSeconds, period.id).toBe(first ? business(waited, first.createdAt) : null);
      expect(period.resolutionBusinessSeconds, period.id).toBe(business(period.startedAt, end));
      expect(period.reopened, period.id).toBe(seen.has(period.conversationId));
      seen.add(period.conversationId);
    }
    expect(totals.inbound).toBe([...periods, ...inbox].reduce((n, x) => n + x.inboundCount, 0));

    // The heatmap counts every inbound message of the range, the history's and the inbox's.
    const heatmap = await supportHeatmap(p, undefined, range);
    const inbound = await db.conversationMessage.count({
      where: { customerId, direction: "inbound", createdAt: { gte: new Date(`${range.dateFrom}T00:00:00Z`) } },
    });
    expect(heatmap.cells.reduce((n, c) => n + c.inbound, 0)).toBe(inbound);

    // The CSAT answers: GET /reports/csat lists what the report counts; the survey's member closed it.
    const csat = await listCsatResponses(
      p,
      undefined,
      CsatListQuery.parse({ dateFrom: range.dateFrom, dateTo: range.dateTo, limit: 100 }),
    );
    expect(csat.total).toBe(totals.csat.responses);
    const answers = await db.csatSurvey.findMany({ where: { customerId, score: { not: null } } });
    const happy = answers.filter((a) => a.score === 3).length;
    expect(totals.csat.score).toBe(Math.round((happy / answers.length) * 1000) / 10);
    const byPeriod = new Map(periods.map((x) => [x.id, x]));
    for (const a of answers) {
      expect(a.memberEmail).toBe(byPeriod.get(a.periodId)?.closedBy);
      expect(a.respondedAt?.getTime()).toBeGreaterThan(a.closedAt.getTime());
    }

    // The breaches: VIP conversations only, each a target the VIP policy missed.
    const policy = await db.slaPolicy.findFirstOrThrow({ where: { customerId, name: DEMO_SLA_POLICY.name } });
    const breaches = await db.slaBreach.findMany({ where: { customerId } });
    expect(breaches).toHaveLength(totals.slaBreaches);
    const vip = await db.conversation.findMany({
      where: { ...history, labels: { some: { label: { nameKey: "vip" } } } },
      select: { id: true, slaPolicyId: true },
    });
    expect(vip.every((c) => c.slaPolicyId === policy.id)).toBe(true);
    for (const b of breaches) {
      expect(vip.some((c) => c.id === b.conversationId)).toBe(true);
      const period = byPeriod.get(b.periodId);
      if (b.target === "first_response") {
        expect(period?.firstResponseSeconds).toBeGreaterThan(DEMO_SLA_POLICY.firstResponseMinutes * 60);
      }
      if (b.target === "resolution") {
        expect(period?.resolutionSeconds).toBeGreaterThan(DEMO_SLA_POLICY.resolutionMinutes * 60);
      }
    }

    // By member and by label, the groups a support manager would look for.
    const members = await supportReport(p, undefined, { ...range, groupBy: "member" });
    expect(members.groups.map((g) => g.key)).toEqual(expect.arrayContaining([DEMO_EMAIL, "api"]));
    expect(members.groups.find((g) => g.key === DEMO_EMAIL)?.csat.responses).toBe(totals.csat.responses);
    const labels = await supportReport(p, undefined, { ...range, groupBy: "label" });
    expect(labels.groups.map((g) => g.key)).toEqual(["", "VIP", "follow-up", "refund"]);
    expect(labels.groups.find((g) => g.key === "VIP")?.slaBreaches).toBe(totals.slaBreaches);
  });
});
