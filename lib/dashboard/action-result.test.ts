// Issue 10 item 3 on server actions: their raw input follows the API's input rules.
import { describe, expect, it } from "vitest";
import { runAction } from "./action-result";

describe("server actions", () => {
  it("refuse their raw input naming the form field before any work", async () => {
    let ran = false;
    const result = await runAction(
      async () => {
        ran = true;
      },
      { name: "ok", description: "bad \ud800" },
    );
    expect(result).toMatchObject({ ok: false, fields: { description: expect.stringMatching(/surrogate/) } });
    expect(ran).toBe(false);
  });
});
