import { describe, expect, it } from "vitest";
import { guessMapping, mapRows, parseJsonContacts, previewCell } from "./parse-file";

// The API's own bulk shape (POST /api/v3/contact-books/{uid}/contacts/bulk).
const apiShaped = JSON.stringify([
  { phoneNumber: "+14155550101", name: "Ada", customFields: { tier: "gold", age: 36, vip: true } },
  { phoneNumber: "+14155550102", custom_fields: { tier: "silver" } },
]);

describe("JSON contact upload", () => {
  it("turns nested custom fields into columns, not [object Object]", () => {
    const parsed = parseJsonContacts(apiShaped);
    expect(parsed.columns).toEqual([
      "phoneNumber",
      "name",
      "customFields.tier",
      "customFields.age",
      "customFields.vip",
    ]);
    expect(parsed.rows[0]).toEqual({
      phoneNumber: "+14155550101",
      name: "Ada",
      "customFields.tier": "gold",
      "customFields.age": 36,
      "customFields.vip": true,
    });
    expect(parsed.rows[1]).toEqual({ phoneNumber: "+14155550102", "customFields.tier": "silver" });
    for (const row of parsed.rows) {
      for (const c of parsed.columns) expect(previewCell(row[c])).not.toContain("[object");
    }
  });

  it("maps custom field columns to the account's fields and keeps their values and types", () => {
    const parsed = parseJsonContacts(apiShaped);
    const mapping = guessMapping(parsed.columns, ["tier", "age"]);
    expect(mapping).toEqual({
      phoneNumber: "phoneNumber",
      name: "name",
      "customFields.tier": "custom:tier",
      "customFields.age": "custom:age",
      "customFields.vip": "", // no such field on the account: the API would refuse it
    });
    expect(mapRows(parsed.rows, mapping)).toEqual([
      { phoneNumber: "+14155550101", name: "Ada", customFields: { tier: "gold", age: 36 } },
      { phoneNumber: "+14155550102", customFields: { tier: "silver" } },
    ]);
  });

  it("reads {contacts: [...]} and shows other nested values as JSON", () => {
    const parsed = parseJsonContacts(JSON.stringify({ contacts: [{ phone: "+14155550103", tags: ["a", "b"] }] }));
    expect(parsed.columns).toEqual(["phone", "tags"]);
    expect(previewCell(parsed.rows[0]?.tags)).toBe('["a","b"]');
    expect(previewCell({ a: 1 })).toBe('{"a":1}');
    expect(previewCell(null)).toBe("");
    expect(previewCell(42)).toBe("42");
  });

  it("refuses JSON that is not a list of contacts", () => {
    expect(() => parseJsonContacts('{"name":"x"}')).toThrow(/array of contact objects/);
  });
});
