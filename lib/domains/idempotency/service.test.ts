import { describe, expect, it } from "vitest";
import { fingerprint } from "./service";

describe("fingerprint", () => {
  it("ignores key order and undefined fields", () => {
    expect(fingerprint("r", { a: 1, b: "x", c: undefined })).toBe(fingerprint("r", { b: "x", a: 1 }));
  });

  it("tells two bodies apart that differ only in a parsed date", () => {
    const at = (iso: string) => ({ since: new Date(iso) });
    expect(fingerprint("r", at("2026-11-01T00:00:00Z"))).not.toBe(fingerprint("r", at("2026-11-02T00:00:00Z")));
    expect(fingerprint("r", at("2026-11-01T00:00:00Z"))).toBe(fingerprint("r", at("2026-11-01T00:00:00Z")));
  });

  it("differs by route", () => {
    expect(fingerprint("a", { x: 1 })).not.toBe(fingerprint("b", { x: 1 }));
  });
});
