// Row checks of the bulk upload: phone normalisation and custom field typing.
import { describe, expect, it } from "vitest";
import { checkRow, coerceFieldValue } from "./row-values";

const fields = new Map([
  ["city", "text"],
  ["age", "number"],
  ["vip", "boolean"],
  ["birthday", "date"],
] as const);

describe("checkRow", () => {
  it("normalises phone numbers to E.164 and treats blank values as not given", () => {
    const res = checkRow(
      { phoneNumber: " +44 (20) 7946-0958 ", name: "", email: null, customFields: { age: "" } },
      fields,
    );
    expect(res).toEqual({
      ok: true,
      row: { phoneNumber: "+442079460958", name: null, email: null, customFields: {} },
    });
    // International only: digits without "+" (a JSON number has none) are refused, not guessed.
    expect(checkRow({ phoneNumber: 14155550100 }, fields)).toMatchObject({
      ok: false,
      problem: { error_code: "INVALID_PHONE_NUMBER", message: expect.stringContaining("start it with +") },
    });
  });

  it("reports one problem per bad row", () => {
    const code = (row: unknown) => {
      const res = checkRow(row, fields);
      return res.ok ? "ok" : res.problem.error_code;
    };
    expect(code({ phoneNumber: "+0123" })).toBe("INVALID_PHONE_NUMBER");
    expect(code({ phoneNumber: "+1415555010012345678" })).toBe("INVALID_PHONE_NUMBER");
    expect(code({ phoneNumber: { n: 1 } })).toBe("INVALID_PHONE_NUMBER");
    expect(code({ phoneNumber: "+14155550100", email: "a@b" })).toBe("INVALID_EMAIL");
    expect(code({ phoneNumber: "+14155550100", name: 42 })).toBe("INVALID_ROW");
    expect(code({ phoneNumber: "+14155550100", customFields: [1, 2] })).toBe("INVALID_ROW");
    expect(code({ phoneNumber: "+14155550100", customFields: { nope: 1 } })).toBe("UNKNOWN_CUSTOM_FIELD");
    expect(code([1])).toBe("INVALID_ROW");
    expect(code(null)).toBe("INVALID_ROW");
  });
});

describe("coerceFieldValue", () => {
  it("accepts each type and its plain string form", () => {
    expect(coerceFieldValue("number", "3.5")).toEqual({ ok: true, value: 3.5 });
    expect(coerceFieldValue("number", 7)).toEqual({ ok: true, value: 7 });
    expect(coerceFieldValue("boolean", "Yes")).toEqual({ ok: true, value: true });
    expect(coerceFieldValue("boolean", 0)).toEqual({ ok: true, value: false });
    expect(coerceFieldValue("date", "2024-02-29")).toEqual({ ok: true, value: "2024-02-29" });
    expect(coerceFieldValue("date", "2024-03-01T10:00:00+02:00")).toEqual({
      ok: true,
      value: "2024-03-01T08:00:00.000Z",
    });
    expect(coerceFieldValue("text", 12)).toEqual({ ok: true, value: "12" });
  });

  it("refuses values of the wrong type", () => {
    for (const [type, value] of [
      ["number", "12abc"],
      ["number", true],
      ["number", "Infinity"],
      ["boolean", "maybe"],
      ["boolean", { a: 1 }],
      ["date", "2023-02-29"],
      ["date", "yesterday"],
      ["date", 20240101],
      ["text", { a: 1 }],
      ["text", "x".repeat(1_001)],
    ] as const) {
      expect(coerceFieldValue(type, value).ok, `${type} ${JSON.stringify(value)}`).toBe(false);
    }
  });
});
