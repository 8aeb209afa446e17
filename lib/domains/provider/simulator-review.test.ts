// The simulator's template review (docs/templates.md "Review"): a body with its variables
// inside the text and a sample value for each is approved; one that starts or ends with a
// variable, numbers them with a gap, or gives no samples is rejected with the reason.
import { describe, expect, it } from "vitest";
import { reviewTemplate } from "./simulator-review";

const body = (text: string, examples?: string[]) => [
  { type: "BODY", text, ...(examples ? { example: { body_text: [examples] } } : {}) },
];

describe("reviewTemplate", () => {
  it("approves a body without variables, and one whose variables sit inside the text with samples", () => {
    expect(reviewTemplate(body("Thanks for your order."))).toEqual({ status: "APPROVED" });
    expect(reviewTemplate(body("Hi {{1}}, your order {{2}} is on its way.", ["Ana", "A-1"]))).toEqual({
      status: "APPROVED",
    });
  });

  it("rejects a body that starts or ends with a variable", () => {
    for (const text of ["{{1}} is your code.", "Your code is {{1}}", "Your code is {{1}}."]) {
      expect(reviewTemplate(body(text, ["123"]))).toEqual({
        status: "REJECTED",
        reason: "INVALID_FORMAT",
        detail: "The body may not start or end with a variable: put text before the first and after the last.",
      });
    }
  });

  it("rejects variables numbered with a gap, a variable without a sample, and a missing body", () => {
    expect(reviewTemplate(body("Hi {{1}}, order {{3}} left.", ["a", "b", "c"]))).toMatchObject({
      status: "REJECTED",
      detail: "Variables must be numbered in order without gaps ({{1}} to {{3}}).",
    });
    expect(reviewTemplate(body("Hi {{1}}, order {{2}} left.", ["Ana"]))).toMatchObject({
      status: "REJECTED",
      detail: "Every variable in the body needs a sample value (example).",
    });
    expect(reviewTemplate([{ type: "FOOTER", text: "Bye" }])).toMatchObject({
      status: "REJECTED",
      detail: "The template has no body text.",
    });
  });
});
