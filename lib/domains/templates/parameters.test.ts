// Template parameters: the slots of a template and the problems of a send's components.
import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/core/errors";
import { componentsFor, renderTemplate } from "./fill";
import { assertTemplateParameters, findParameterProblem, templateParameters, variablesOf } from "./parameters";

const ORDER_UPDATE = [{ type: "BODY", text: "Hi {{1}}, your order {{2}} is on its way." }];
const body = (...texts: string[]) => ({ type: "body", parameters: texts.map((text) => ({ type: "text", text })) });

const RICH = [
  { type: "HEADER", format: "IMAGE", example: { header_handle: ["https://x.test/a.png"] } },
  { type: "BODY", text: "Hello {{1}}", example: { body_text: [["Ana"]] } },
  { type: "FOOTER", text: "Reply STOP to opt out" },
  {
    type: "BUTTONS",
    buttons: [
      { type: "URL", text: "Track", url: "https://shop.test/track/{{1}}", example: ["https://shop.test/track/A1"] },
      { type: "PHONE_NUMBER", text: "Call", phone_number: "+14155550100" },
      { type: "QUICK_REPLY", text: "Stop" },
      { type: "COPY_CODE", example: "SAVE10" },
    ],
  },
];
const richSend = (): Record<string, unknown>[] => [
  { type: "header", parameters: [{ type: "image", image: { link: "https://x.test/b.png" } }] },
  body("Ana"),
  { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "A1" }] },
  { type: "button", sub_type: "copy_code", index: 3, parameters: [{ type: "coupon_code", coupon_code: "SAVE10" }] },
];

describe("variablesOf", () => {
  it("counts positional variables up to the highest and keeps named ones in order", () => {
    expect(variablesOf("Hi {{1}}, order {{2}}, again {{1}}")).toEqual({ names: ["1", "2"], named: false });
    expect(variablesOf("{{ 3 }}")).toEqual({ names: ["1", "2", "3"], named: false });
    expect(variablesOf("Hi {{first_name}}, {{order}}")).toEqual({ names: ["first_name", "order"], named: true });
    expect(variablesOf("No variables")).toEqual({ names: [], named: false });
  });
});

describe("templateParameters", () => {
  it("lists a slot per header, body and button parameter with the template's examples", () => {
    const t = templateParameters(RICH);
    expect(t.buttonCount).toBe(4);
    expect(t.slots.map((s) => [s.component, s.index, s.kind, s.required, s.example])).toEqual([
      ["header", 0, "image", true, undefined],
      ["body", 0, "text", true, "Ana"],
      ["button", 0, "text", true, "https://shop.test/track/A1"],
      ["button", 2, "payload", false, undefined],
      ["button", 3, "coupon_code", true, "SAVE10"],
    ]);
  });
});

describe("findParameterProblem", () => {
  it("accepts the parameters the template asks for", () => {
    expect(findParameterProblem(ORDER_UPDATE, [body("Ana", "A-1")])).toBeNull();
    expect(findParameterProblem(RICH, richSend())).toBeNull();
    expect(findParameterProblem([{ type: "BODY", text: "No variables" }], [])).toBeNull();
  });

  it("refuses missing body parameters with 132000, naming the first missing one", () => {
    expect(findParameterProblem(ORDER_UPDATE, [])).toMatchObject({
      component: "body",
      index: 0,
      expected: 2,
      received: 0,
      providerCode: 132000,
      message: "body parameter 1 ({{1}}) is missing: the template's body takes 2 parameters, 0 given",
    });
    expect(findParameterProblem(ORDER_UPDATE, [body("Ana")])).toMatchObject({ component: "body", index: 1 });
  });

  it("refuses a parameter too many", () => {
    expect(findParameterProblem(ORDER_UPDATE, [body("a", "b", "c")])).toMatchObject({
      component: "body",
      index: 2,
      providerCode: 132000,
      message: "body parameter 3 is one too many: the template's body takes 2 parameters, 3 given",
    });
    expect(findParameterProblem([{ type: "BODY", text: "Plain" }], [body("x")])).toMatchObject({
      component: "body",
      index: 0,
      expected: 0,
      received: 1,
    });
  });

  it("refuses a parameter of the wrong kind with 132012 and an empty value with 131008", () => {
    const wrongHeader = richSend();
    wrongHeader[0] = { type: "header", parameters: [{ type: "text", text: "hi" }] };
    expect(findParameterProblem(RICH, wrongHeader)).toMatchObject({
      component: "header",
      index: 0,
      providerCode: 132012,
      message: "header parameter 1 must be of type image, not text",
    });
    expect(findParameterProblem(ORDER_UPDATE, [body("Ana", " ")])).toMatchObject({
      component: "body",
      index: 1,
      providerCode: 131008,
    });
  });

  it("checks buttons by index: required ones, ones without parameters, unknown ones and sub types", () => {
    const noUrl = richSend().filter((c) => c.sub_type !== "url");
    expect(findParameterProblem(RICH, noUrl)).toMatchObject({
      component: "button",
      index: 0,
      providerCode: 132000,
      message: 'button 0 ("Track") needs a text parameter (sub_type url), none given',
    });
    const call = [
      ...richSend(),
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "x" }] },
    ];
    expect(findParameterProblem(RICH, call)).toMatchObject({
      component: "button",
      index: 1,
      message: "button 1 takes no parameters",
    });
    const ghost = [...richSend(), { type: "button", sub_type: "url", index: "7", parameters: [] }];
    expect(findParameterProblem(RICH, ghost)).toMatchObject({ component: "button", index: 7 });
    const wrongSub = richSend();
    wrongSub[2] = { type: "button", sub_type: "quick_reply", index: "0", parameters: [{ type: "text", text: "A1" }] };
    expect(findParameterProblem(RICH, wrongSub)).toMatchObject({ component: "button", index: 0, providerCode: 132012 });
    // A quick reply's payload is optional.
    const withPayload = [
      ...richSend(),
      { type: "button", sub_type: "quick_reply", index: 2, parameters: [{ type: "payload", payload: "STOP" }] },
    ];
    expect(findParameterProblem(RICH, withPayload)).toBeNull();
  });

  it("matches named body parameters by name", () => {
    const named = [{ type: "BODY", text: "Hi {{first_name}}, order {{order_id}}" }];
    const ok = [
      {
        type: "body",
        parameters: [
          { type: "text", parameter_name: "order_id", text: "A-1" },
          { type: "text", parameter_name: "first_name", text: "Ana" },
        ],
      },
    ];
    expect(findParameterProblem(named, ok)).toBeNull();
    expect(findParameterProblem(named, [body("Ana", "A-1")])).toMatchObject({
      component: "body",
      index: 0,
      providerCode: 131008,
      message: 'body parameter 1 ({{first_name}}) is missing: name it with parameter_name "first_name"',
    });
  });

  it("refuses malformed components and unknown component types", () => {
    expect(findParameterProblem(ORDER_UPDATE, ["x"])).toMatchObject({
      component: "component",
      index: 0,
      providerCode: 131009,
    });
    expect(findParameterProblem(ORDER_UPDATE, [body("a", "b"), { type: "footer" }])).toMatchObject({
      index: 1,
      providerCode: 131009,
    });
    expect(findParameterProblem(ORDER_UPDATE, [body("a", "b"), body("a", "b")])).toMatchObject({
      component: "body",
      index: 1,
    });
  });
});

describe("assertTemplateParameters", () => {
  it("throws VALIDATION_FAILED naming the template, component and index", () => {
    const template = { name: "order_update", language: "en", components: ORDER_UPDATE };
    expect(() => assertTemplateParameters(template, [body("Ana", "A-1")])).not.toThrow();
    try {
      assertTemplateParameters(template, []);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      const e = error as ApiError;
      expect(e.code).toBe("VALIDATION_FAILED");
      expect(e.message).toBe(
        "Template order_update (en): body parameter 1 ({{1}}) is missing: the template's body takes 2 parameters, 0 given",
      );
      expect(e.details).toMatchObject({ component: "body", index: 0, expected: 2, received: 0, providerCode: 132000 });
    }
  });
});

describe("filling a template", () => {
  it("builds the send's components from form values, and they pass the check", () => {
    const values = { "header.0": "https://x.test/c.png", "body.0": "Ana", "button.0": "A1", "button.3": "SAVE10" };
    const components = componentsFor(RICH, values);
    expect(findParameterProblem(RICH, components)).toBeNull();
    expect(componentsFor(ORDER_UPDATE, { "body.0": "Ana", "body.1": "A-1" })).toEqual([body("Ana", "A-1")]);
  });

  it("renders the preview, keeping unfilled variables visible", () => {
    expect(renderTemplate(ORDER_UPDATE, { "body.0": "Ana" }).body).toBe("Hi Ana, your order {{2}} is on its way.");
    expect(renderTemplate(RICH, {})).toEqual({
      header: "[image]",
      body: "Hello {{1}}",
      footer: "Reply STOP to opt out",
      buttons: ["Track", "Call", "Stop", "Copy code"],
    });
  });
});
