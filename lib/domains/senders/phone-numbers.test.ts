// The one phone parser (lib/domains/senders/phone.ts) on every path that takes a number a person
// typed: a sender connected through the API, a recipient of /send, /chat and the provider-shaped
// /messages, a contact upload row, a blacklisted number, and the dashboard composer's body.
// A number without "+" is refused with the message a user sees, never read as another country's
// (docs/messaging.md "Phone numbers").
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { ComposerBody } from "@/lib/domains/messaging/schemas";
import { recordApiAnswers } from "@/test/api-answers";
import { call, createTestCustomer, uniquePhone } from "@/test/factory";
import { parsePhone } from "./phone";

recordApiAnswers();

const NOT_INTERNATIONAL = "is not an international number: start it with + and the country code";

describe("parsePhone", () => {
  it("refuses a number without + instead of reading it as another country's", () => {
    expect(parsePhone("555 000 1234")).toEqual({
      ok: false,
      message: `"555 000 1234" ${NOT_INTERNATIONAL} (like +1 415 555 0123)`,
    });
    // Where the form offers a country (the senders form and API, the Messages composer), it says so.
    expect(parsePhone("555 000 1234", { countryPicker: true })).toEqual({
      ok: false,
      message: `"555 000 1234" ${NOT_INTERNATIONAL} (like +1 415 555 0123), or pick its country`,
    });
    expect(parsePhone("4155550177")).toMatchObject({ ok: false, message: expect.stringContaining(NOT_INTERNATIONAL) });
    // The provider's form carries the country code in the digits; "41 55550177" is no Swiss number,
    // and the refusal says how the digits were read and what to type instead.
    expect(parsePhone("4155550177", { digitsAreInternational: true })).toEqual({
      ok: false,
      message:
        '"4155550177" is not a valid phone number for country code +41 (CH), read from its first digits: type + and the country code first, like +1 415 555 0123',
    });
    expect(parsePhone("+999 1234567")).toMatchObject({
      ok: false,
      message: expect.stringContaining("known country code"),
    });
    // A number typed without "+" is never told about "the +" it does not have.
    for (const [typed, options] of [
      ["00999 1234567", {}],
      ["9991234567", { digitsAreInternational: true }],
      ["4155550177", { digitsAreInternational: true }],
      ["555 000 1234", {}],
    ] as const) {
      const refused = parsePhone(typed, options);
      expect(refused.ok).toBe(false);
      const message = refused.ok ? "" : refused.message;
      expect(message, typed).not.toContain("after the +");
      expect(message, typed).toContain("+ and the country code");
      expect(message, typed).toContain("like +1 415 555 0123");
    }
    expect(parsePhone("00999 1234567")).toEqual({
      ok: false,
      message:
        '"00999 1234567" does not start with a known country code after the 00: type + and the country code, like +1 415 555 0123',
    });
    expect(parsePhone("+999 1234567")).toEqual({
      ok: false,
      message:
        '"+999 1234567" does not start with a known country code after the +: type one after it, like +1 415 555 0123',
    });
    expect(parsePhone("call me")).toMatchObject({
      ok: false,
      message: expect.stringContaining("is not a phone number"),
    });
  });

  it("reads an international number, or a national one with its country picked", () => {
    expect(parsePhone("+1 (415) 555-0177")).toEqual({ ok: true, e164: "+14155550177" });
    expect(parsePhone("0033 6 12 34 56 78")).toEqual({ ok: true, e164: "+33612345678" });
    expect(parsePhone("555 000 1234", { country: "US" })).toEqual({ ok: true, e164: "+15550001234" });
    expect(parsePhone("06 12 34 56 78", { country: "fr" })).toEqual({ ok: true, e164: "+33612345678" });
    expect(parsePhone("12", { country: "FR" })).toMatchObject({ ok: false, message: expect.stringContaining("in FR") });
    expect(parsePhone("14155550177", { digitsAreInternational: true })).toEqual({ ok: true, e164: "+14155550177" });
  });
});

describe("the parser on every path", () => {
  it("POST /senders refuses '555 000 1234' naming the field, and takes it with a country", async () => {
    const t = await createTestCustomer();
    const before = await db.sender.count({ where: { customerId: t.customer.id } });
    const res = await call("POST", "/api/v3/senders", {
      token: t.globalToken,
      body: { sender: { phoneNumber: "555 000 1234" } },
    });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.message).toContain(`"555 000 1234" ${NOT_INTERNATIONAL}`);
    expect(res.body.details.fields).toEqual([
      { path: "body.sender.phoneNumber", message: expect.stringContaining(NOT_INTERNATIONAL) },
    ]);
    expect(await db.sender.count({ where: { customerId: t.customer.id } })).toBe(before);
    expect(await db.sender.findUnique({ where: { phoneNumber: "+5550001234" } })).toBeNull();

    const national = uniquePhone().slice(2);
    const withCountry = await call("POST", "/api/v3/senders", {
      token: t.globalToken,
      body: { sender: { phoneNumber: national, country: "US" } },
    });
    expect(withCountry.status).toBe(201);
    expect(withCountry.body.data.phoneNumber).toBe(`+1${national}`);
  });

  it.each([
    ["/api/v3/send", { template: { name: "hello_world" } }],
    ["/api/v3/chat", { type: "text", text: "hi" }],
  ])("%s refuses the recipient '4155550177' and sends nothing", async (path, rest) => {
    const t = await createTestCustomer();
    const res = await call("POST", path, { token: t.globalToken, body: { to: "4155550177", ...rest } });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.message).toContain(`"4155550177" ${NOT_INTERNATIONAL}`);
    expect(await db.message.count({ where: { customerId: t.customer.id } })).toBe(0);
  });

  it("the provider-shaped /messages reads digits as international and still refuses an impossible number", async () => {
    const t = await createTestCustomer();
    const res = await call("POST", `/api/v3/${t.sender.phoneNumberId}/messages`, {
      token: t.globalToken,
      body: { messaging_product: "whatsapp", to: "4155550177", type: "text", text: { body: "hi" } },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("is not a valid phone number for country code +41");
    expect(await db.message.count({ where: { customerId: t.customer.id } })).toBe(0);
  });

  it("a contact upload refuses a row without + with the parser's message", async () => {
    const t = await createTestCustomer();
    const book = await call("POST", "/api/v3/contact-books", {
      token: t.globalToken,
      body: { contactBook: { name: `phones ${Date.now()}` } },
    });
    expect(book.status).toBe(201);
    const res = await call("POST", `/api/v3/contact-books/${book.body.data.uid}/contacts/bulk`, {
      token: t.globalToken,
      body: { contacts: [{ phoneNumber: "4155550177" }, { phoneNumber: "+1 415 555 0177" }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ created: 1, failed: 1 });
    expect(res.body.data.errors).toEqual([
      { index: 0, error_code: "INVALID_PHONE_NUMBER", message: expect.stringContaining(NOT_INTERNATIONAL) },
    ]);
  });

  it("POST /blacklist refuses a number without +", async () => {
    const t = await createTestCustomer();
    const res = await call("POST", "/api/v3/blacklist", { token: t.globalToken, body: { phoneNumber: "4155550177" } });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe("VALIDATION_FAILED");
    expect(res.body.message).toContain(NOT_INTERNATIONAL);
    expect(await db.blacklistEntry.count({ where: { customerId: t.customer.id } })).toBe(0);
  });

  it("the dashboard composer's body takes the country picked in the form", () => {
    const base = { mode: "session", senderId: "+14155550100", text: "hi" } as const;
    const refused = ComposerBody.safeParse({ ...base, to: "4155550177" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toEqual([
      expect.objectContaining({ path: ["to"], message: expect.stringContaining(NOT_INTERNATIONAL) }),
    ]);
    expect(ComposerBody.parse({ ...base, to: "415 555 0177", country: "US" })).toMatchObject({ to: "+14155550177" });
  });
});
