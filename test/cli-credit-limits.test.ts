// The operator's credit:add and sender:limits (docs/operator-cli.md "Credit and sender limits"):
// the real CLI process with --json, checked through what the customer sees on the API
// (the ledger's entries and balance, GET /senders), and bad input named by its flag.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { cliJson, cliInProcess as inProcess } from "./cli-process";
import { call, createTestCustomer, uniquePhone } from "./factory";
import { createMemberOf } from "./member-fixtures";
import { addTemplate } from "./messaging-fixtures";

describe("credit:add and sender:limits", { timeout: 180_000 }, () => {
  it("credit:add books a credit the customer sees in the ledger, with the new balance", async () => {
    const t = await createTestCustomer();
    const first = await cliJson("credit:add", "--customer", t.customer.id, "--amount", "25", "--note", "Invoice 1042");
    expect(first).toMatchObject({
      customerId: t.customer.id,
      type: "credit",
      amount: "25",
      currency: "USD",
      description: "Invoice 1042",
      balance: "25",
    });
    const second = await inProcess("credit:add", "--customer", t.customer.id, "--amount", "12.50", "--json");
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ amount: "12.5", description: "Prepaid top-up", balance: "37.5" });

    const history = await call("GET", "/api/v3/billing/history", {
      token: t.globalToken,
      query: { transactionType: "credit" },
    });
    expect(history.status).toBe(200);
    expect(history.body.data.summary).toMatchObject({ credits: 37.5, balance: 37.5 });
    const descriptions = history.body.data.transactions.map((x: { description: string }) => x.description);
    expect(descriptions.sort()).toEqual(["Invoice 1042", "Prepaid top-up"]);
  });

  it("credit:add names the customer by an owner's email or a sender number, as customer:list shows them", async () => {
    const t = await createTestCustomer({ name: `Acme ${uniquePhone().slice(-6)}` });
    const owner = await createMemberOf(t.customer.id, "owner");
    const byEmail = await inProcess("credit:add", "--customer", owner.email.toUpperCase(), "--amount", "247.125");
    expect(byEmail.code).toBe(0);
    // Money in the text as everywhere (lib/core/money.ts): the code first, the currency's minor units.
    expect(byEmail.stdout).toContain(`Credited USD 247.13 to ${t.customer.name} (${t.customer.id}; Prepaid top-up)`);
    expect(byEmail.stdout).toContain("balance USD 247.13");
    const bySender = await cliJson("credit:add", "--customer", t.sender.phoneNumber, "--amount", "62.875");
    expect(bySender).toMatchObject({ customerId: t.customer.id, amount: "62.875", balance: "310" });

    const listed = await cliJson("customer:list", "--search", t.sender.phoneNumber);
    expect(listed.customers).toEqual([
      expect.objectContaining({
        customerId: t.customer.id,
        name: t.customer.name,
        owners: [owner.email],
        senders: expect.arrayContaining([t.sender.phoneNumber, t.otherSender.phoneNumber]),
        balance: "310.000000",
        currency: "USD",
      }),
    ]);
    const text = await inProcess("customer:list", "--search", owner.email);
    expect(text.stdout).toContain(`${t.customer.id}  ${t.customer.name}  (pro)  balance USD 310.00`);
    expect(text.stdout).toContain(`owners: ${owner.email}`);
    expect((await inProcess("customer:list", "--search", "no-such-customer-anywhere")).stdout).toContain(
      'No customer matches "no-such-customer-anywhere".',
    );

    const unknown = await inProcess("credit:add", "--customer", "nobody@example.test", "--amount", "5");
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain("--customer");
    expect(unknown.stderr).toContain("no customer has a member with the email nobody@example.test");
    const unknownSender = await inProcess("credit:add", "--customer", "+14155550999", "--amount", "5");
    expect(unknownSender.stderr).toContain("no customer has the sender +14155550999");
  });

  it("credit:add resumes the broadcasts paused for want of credit once the balance covers a message, not a person's pause", async () => {
    const t = await createTestCustomer();
    await addTemplate(t.customer.id, { name: "spring_sale", category: "MARKETING" });
    await db.rateCard.create({
      data: { scope: t.customer.id, customerId: t.customer.id, pricingCategory: "marketing", rate: 0.05 },
    });
    const paused = (pauseReason: string | null) =>
      db.broadcast.create({
        data: {
          id: `bc_${uniquePhone().slice(1)}${pauseReason ?? "person"}`,
          customerId: t.customer.id,
          senderId: t.sender.id,
          name: "Spring sale",
          status: "PAUSED",
          pauseReason,
          templateName: "spring_sale",
          templateLanguage: "en",
          audience: { contactBookUids: [], filters: [], phoneNumbers: [] },
          variables: { body: [], header: [] },
        },
      });
    const starved = await paused("insufficient_balance");
    const byPerson = await paused(null);
    // 0.01 does not cover one message at 0.05: nothing resumes.
    const tooLittle = await inProcess("credit:add", "--customer", t.customer.id, "--amount", "0.01", "--json");
    expect(JSON.parse(tooLittle.stdout)).toMatchObject({ balance: "0.01", resumedBroadcasts: [] });
    expect((await db.broadcast.findUniqueOrThrow({ where: { id: starved.id } })).status).toBe("PAUSED");

    const enough = await inProcess("credit:add", "--customer", t.customer.id, "--amount", "5");
    expect(enough.code).toBe(0);
    expect(enough.stdout).toContain(`resumed broadcasts ${starved.id}`);
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: starved.id } })).toMatchObject({
      status: "SENDING",
      pauseReason: null,
    });
    expect(await db.broadcast.findUniqueOrThrow({ where: { id: byPerson.id } })).toMatchObject({
      status: "PAUSED",
      pauseReason: null,
    });
  });

  it("sender:limits sets the number's throughput and the business account's messaging limit", async () => {
    const t = await createTestCustomer();
    await db.sender.update({ where: { id: t.otherSender.id }, data: { wabaId: t.sender.wabaId } });
    const set = await cliJson(
      "sender:limits",
      "--sender",
      t.sender.phoneNumber,
      "--throughput",
      "400",
      "--messaging-limit",
      "2000",
    );
    expect(set).toMatchObject({
      phoneNumber: t.sender.phoneNumber,
      throughputPerSecond: 400,
      messagingLimit: { tier: 2000, usedLast24h: 0, resetsAt: null },
    });
    expect((set.accountSenders as string[]).sort()).toEqual([t.sender.phoneNumber, t.otherSender.phoneNumber].sort());

    const unlimited = await inProcess(
      "sender:limits",
      "--sender",
      t.otherSender.phoneNumber,
      "--messaging-limit",
      "unlimited",
      "--json",
    );
    expect(JSON.parse(unlimited.stdout)).toMatchObject({ throughputPerSecond: 80, messagingLimit: { tier: null } });

    const res = await call("GET", "/api/v2/senders", { token: t.globalToken });
    const shown = new Map(
      res.body.data.senders.map(
        (s: { phoneNumber: string; throughputPerSecond: number; messagingLimit: { tier: number | null } }) => [
          s.phoneNumber,
          [s.throughputPerSecond, s.messagingLimit.tier],
        ],
      ),
    );
    expect(shown.get(t.sender.phoneNumber)).toEqual([400, null]);
    expect(shown.get(t.otherSender.phoneNumber)).toEqual([80, null]);
    // The third sender is its own business account: untouched.
    expect(shown.get(t.incompleteSender.phoneNumber)).toEqual([80, 10_000]);

    // Without a change it only reads.
    const read = await inProcess("sender:limits", "--sender", t.sender.phoneNumber);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain("400 messages/s");
    expect(read.stdout).toContain("messaging limit unlimited");
  });

  it.each([
    [["credit:add", "--amount", "5"], "--customer: is required"],
    [["credit:add", "--customer", "c1"], "--amount: is required"],
    [["credit:add", "--customer", "c1", "--amount", "0"], "--amount: must be more than 0"],
    [["credit:add", "--customer", "c1", "--amount", "ten"], "--amount: must be a positive amount"],
    [["credit:add", "--customer", "c1", "--amount=-5"], "--amount: must be a positive amount"],
    [["credit:add", "--customer", "nobody", "--amount", "5"], "--customer: no customer with id nobody"],
    [["sender:limits", "--sender", "call-me"], '--sender: "call-me" is not a phone number'],
    [["sender:limits", "--sender", "+15550001234", "--throughput", "5000"], "--throughput: must be at most 1000"],
    [["sender:limits", "--sender", "+15550001234", "--throughput", "0"], "--throughput: must be at least 1"],
    [["sender:limits", "--sender", "+15550001234", "--messaging-limit", "lots"], "--messaging-limit: must be a number"],
  ])("rejects %j naming the argument", async (args, message) => {
    const run = await inProcess(...args, "--json");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("sender:limits on an unknown number says so", async () => {
    const run = await inProcess("sender:limits", "--sender", uniquePhone(), "--throughput", "100");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("--sender: no sender with phone number");
  });
});
