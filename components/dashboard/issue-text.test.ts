import { describe, expect, it } from "vitest";
import { SlaPolicyCreateBody } from "@/lib/domains/sla/schemas";
import { issueText } from "./issue-text";

const FIELDS = {
  "policy.name": "Name",
  "policy.firstResponseMinutes": "First response (minutes)",
  "policy.applies.labels": "Labels",
};

/** The issues of the SLA form's schema for a body, in the form's words. */
function texts(policy: Record<string, unknown>): string[] {
  const parsed = SlaPolicyCreateBody.safeParse({ policy });
  if (parsed.success) throw new Error("expected issues");
  return parsed.error.issues.map((i) => issueText(i, FIELDS));
}

describe("issueText", () => {
  it("names a field by its label, replacing the API's name at the start of the message", () => {
    expect(texts({ name: "Std", firstResponseMinutes: 0 })).toEqual(["First response (minutes) must be at least 1"]);
    expect(texts({ name: "", firstResponseMinutes: 5 })).toEqual(["Name is required"]);
  });

  it("names an item of a list by the list's label", () => {
    expect(texts({ name: "Std", firstResponseMinutes: 5, applies: { labels: ["vip", " "] } })).toEqual([
      "Labels: must not be empty",
    ]);
  });

  it("keeps the path of a field the form does not name, and a form-level message alone", () => {
    expect(issueText({ path: ["policy", "colour"], message: "unknown" }, FIELDS)).toBe("policy.colour: unknown");
    expect(issueText({ path: [], message: "the body must be an object" }, FIELDS)).toBe("the body must be an object");
  });
});
