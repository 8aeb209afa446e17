import { describe, expect, it } from "vitest";
import { findInputProblem, MAX_INPUT_DEPTH, unstorableText } from "./storable-input";

describe("text the database can store", () => {
  it("refuses NUL and unpaired surrogates, accepts pairs and everything else", () => {
    expect(unstorableText("a\u0000b")).toMatch(/NUL/);
    for (const bad of ["\ud800", "x\udbff", "\udc00y", "\ude00\ud83d"])
      expect(unstorableText(bad)).toMatch(/surrogate/);
    for (const good of ["", "plain", "😀", "\ud83d\ude00", "\ufffd", "日本語"])
      expect(unstorableText(good)).toBeUndefined();
  });

  it("names the first bad field by its path, keys included", () => {
    expect(findInputProblem({ a: { b: ["ok", "\ud800"] } }, "body")).toEqual({
      path: "body.a.b.1",
      message: expect.stringMatching(/surrogate/),
    });
    expect(findInputProblem({ "k\u0000": 1 }, "")?.path).toBe("k\u0000");
    expect(findInputProblem({ first: "\u0000", second: "\ud800" }, "q")?.path).toBe("q.first");
  });

  it("skips the text of paths a handler checks itself, but not their depth", () => {
    const rows = { rows: [{ n: "\ud800" }], other: "ok" };
    expect(findInputProblem(rows, "body", { skipTextUnder: ["body.rows"] })).toBeUndefined();
    const deep = { rows: [JSON.parse(`${"[".repeat(100)}${"]".repeat(100)}`)] };
    expect(findInputProblem(deep, "body", { skipTextUnder: ["body.rows"] })?.message).toMatch(/nested deeper/);
  });

  it("caps depth without recursion, even a million levels deep", () => {
    const million = JSON.parse(`${"[".repeat(1_000_000)}${"]".repeat(1_000_000)}`);
    expect(findInputProblem(million, "body")?.message).toBe(`nested deeper than ${MAX_INPUT_DEPTH} levels`);
    const atCap = JSON.parse(`${"[".repeat(MAX_INPUT_DEPTH)}${"]".repeat(MAX_INPUT_DEPTH)}`);
    expect(findInputProblem(atCap, "body")).toBeUndefined();
  });
});
