// The builder's draft becomes the provider's creation components (docs/templates.md "The
// builder"), with the samples the review asks for, and what it lacks is said before submit.
import { describe, expect, it } from "vitest";
import { draftComponents, draftProblem, emptyDraft } from "./draft";
import { templateParameters } from "./parameters";

describe("draftComponents", () => {
  it("builds header, body with samples, footer and buttons in the provider's shape", () => {
    const components = draftComponents({
      headerFormat: "TEXT",
      headerText: "Order {{1}}",
      headerExample: "A-1",
      body: " Hi {{1}}, your order {{2}} is on its way. ",
      bodyExamples: { "1": "Ana", "2": "A-1042" },
      footer: "Reply STOP to opt out",
      buttons: [
        { type: "URL", text: "Track", value: "https://shop.test/track/{{1}}", example: "A-1042" },
        { type: "QUICK_REPLY", text: "Thanks", value: "", example: "" },
      ],
    });
    expect(components).toEqual([
      { type: "HEADER", format: "TEXT", text: "Order {{1}}", example: { header_text: ["A-1"] } },
      {
        type: "BODY",
        text: "Hi {{1}}, your order {{2}} is on its way.",
        example: { body_text: [["Ana", "A-1042"]] },
      },
      { type: "FOOTER", text: "Reply STOP to opt out" },
      {
        type: "BUTTONS",
        buttons: [
          { type: "URL", text: "Track", url: "https://shop.test/track/{{1}}", example: ["A-1042"] },
          { type: "QUICK_REPLY", text: "Thanks" },
        ],
      },
    ]);
    // What a send then has to give: header 1, body 2, the URL button's suffix, the quick reply optional.
    const slots = templateParameters(components).slots.map((s) => `${s.component}.${s.index}:${s.example ?? ""}`);
    expect(slots).toEqual(["header.0:A-1", "body.0:Ana", "body.1:A-1042", "button.0:A-1042", "button.1:"]);
  });

  it("leaves out what is not given: no header, no footer, no buttons, no samples without variables", () => {
    expect(draftComponents({ ...emptyDraft(), body: "Thanks!" })).toEqual([{ type: "BODY", text: "Thanks!" }]);
  });
});

describe("draftProblem", () => {
  it("asks for a body, a sample per variable and complete buttons", () => {
    expect(draftProblem(emptyDraft())).toBe("Body: write the message text.");
    expect(draftProblem({ ...emptyDraft(), body: "Hi {{1}}, order {{2}}.", bodyExamples: { "1": "Ana" } })).toBe(
      "Body: give a sample value for {{2}} (the review needs one per variable).",
    );
    const withButton = (type: "URL" | "PHONE_NUMBER", value: string) => ({
      ...emptyDraft(),
      body: "Hello",
      buttons: [{ type, text: "Go", value, example: "" }],
    });
    expect(draftProblem(withButton("URL", "shop.test"))).toBe("Button 1: the URL must start with https://.");
    expect(draftProblem(withButton("PHONE_NUMBER", "555 0100"))).toBe(
      "Button 1: the phone number must be international, starting with +.",
    );
    expect(draftProblem(withButton("PHONE_NUMBER", "+1 415 555 0100"))).toBeNull();
  });
});
