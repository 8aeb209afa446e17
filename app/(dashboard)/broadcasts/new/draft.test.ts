// The new-broadcast form maps no variable by itself (docs/broadcasts.md "Variables"): each
// must be chosen, and a save or a start is refused naming each one left; the live count
// meanwhile stands each unmapped variable as its own placeholder.
import { describe, expect, it } from "vitest";
import { BroadcastCreateInput } from "@/lib/domains/broadcasts/schemas";
import { emptyMapping, errorsOf, type FormDraft, fileErrors, inputOf, mappedSlots } from "./draft";

const components = [{ type: "BODY", text: "Hi {{1}}, your order {{2}} is on its way." }];
const slots = mappedSlots(components);

const draft = (mappings: FormDraft["mappings"] = {}): FormDraft => ({
  name: "Order update",
  senderId: "+15550100001",
  template: { name: "order_update", language: "en" },
  bookUids: ["cmbook0000000000000000001"],
  filters: [],
  mappings,
  schedule: { when: "now", date: "", time: "09:00", zone: "UTC" },
  pace: "",
});

describe("the new broadcast's variables", () => {
  it("start unmapped, and the form refuses the broadcast naming each variable left", () => {
    expect(emptyMapping().source).toBe("");
    const parsed = BroadcastCreateInput.safeParse(inputOf(draft(), slots));
    expect(parsed.success).toBe(false);
    const errors = errorsOf(parsed.error?.issues ?? [], slots);
    expect(errors["variables.body.0.source"]).toBe("Body {{1}}: choose where its value comes from");
    expect(errors["variables.body.1.source"]).toBe("Body {{2}}: choose where its value comes from");

    const half = inputOf(draft({ "body.0": { ...emptyMapping(), source: "name" } }), slots);
    const stillRefused = BroadcastCreateInput.safeParse(half);
    expect(Object.keys(errorsOf(stillRefused.error?.issues ?? [], slots))).toEqual(["variables.body.1.source"]);
  });

  it("are counted meanwhile as their own placeholders (nobody misses one, the samples show them unfilled)", () => {
    const counted = inputOf(draft({ "body.0": { ...emptyMapping(), source: "name" } }), slots, true);
    expect(counted.variables.body).toEqual([{ source: "name" }, { source: "constant", value: "{{2}}" }]);
    expect(BroadcastCreateInput.safeParse(counted).success).toBe(true);
  });

  it("once each is mapped, the broadcast is the API's input as chosen", () => {
    const mapped = inputOf(
      draft({
        "body.0": { ...emptyMapping(), source: "name", default: "there" },
        "body.1": { ...emptyMapping(), source: "field", key: "order_ref" },
      }),
      slots,
    );
    const parsed = BroadcastCreateInput.safeParse(mapped);
    expect(parsed.success).toBe(true);
    expect(parsed.data?.variables.body).toEqual([
      { source: "name", default: "there" },
      { source: "field", key: "order_ref" },
    ]);
  });
});

describe("a template's media header", () => {
  const withImage = [{ type: "HEADER", format: "IMAGE" }, ...components];
  const imageSlots = mappedSlots(withImage);

  it("is one file for every recipient: a mediaId or an https link, the API's constant header mapping", () => {
    expect(imageSlots.map((s) => `${s.component}.${s.index}:${s.kind}`)).toEqual([
      "header.0:image",
      "body.0:text",
      "body.1:text",
    ]);
    const mappings = {
      "body.0": { ...emptyMapping(), source: "name" as const },
      "body.1": { ...emptyMapping(), source: "field" as const, key: "order_ref" },
    };
    for (const value of ["med_5f1c0e9a2b7d4c3e8f6a1b2c3d4e5f60", "https://example.com/label.png"]) {
      const d = draft({ ...mappings, "header.0": { ...emptyMapping(), source: "constant", value: ` ${value} ` } });
      const parsed = BroadcastCreateInput.safeParse(inputOf(d, imageSlots));
      expect(parsed.data?.variables.header).toEqual([{ source: "constant", value }]);
      expect(fileErrors(d, imageSlots)).toEqual({});
    }
  });

  it("left empty or not a file is refused under the field; the live count stands a link for it meanwhile", () => {
    const hint = "Header file: upload one, or enter its mediaId or an https link";
    for (const value of ["", "label.png", "http://example.com/x.png"]) {
      const d = draft({ "header.0": { ...emptyMapping(), source: "constant", value } });
      expect(fileErrors(d, imageSlots)).toEqual({ "variables.header.0.value": hint });
    }
    const counted = inputOf(draft(), imageSlots, true);
    expect(counted.variables.header).toEqual([{ source: "constant", value: "https://example.com/header-file" }]);
    expect(fileErrors(draft(), slots)).toEqual({});
  });
});

describe("a saved segment as the audience", () => {
  it("replaces the books and filters in the input, and the API's schema takes it", () => {
    const named = { ...emptyMapping(), source: "name" as const };
    const input = inputOf({ ...draft({ "body.0": named, "body.1": named }), segmentUid: "seg_abc123" }, slots);
    expect(input.audience).toEqual({ segmentUid: "seg_abc123" });
    expect(BroadcastCreateInput.safeParse(input).success).toBe(true);
    const bad = BroadcastCreateInput.safeParse({ ...input, audience: { segmentUid: "nope" } });
    expect(errorsOf(bad.error?.issues ?? [])["audience.segmentUid"]).toBe(
      "Segment: choose one of the account's segments",
    );
  });
});
