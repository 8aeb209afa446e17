// The Direct Send rule per version lives in the send body schemas (docs/messaging.md):
// v2 /send ignores the Direct Send fields, v3 /send refuses them with their own code;
// v2 /chat and /messages refuse category, v3 accepts it.
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { codedRefusal } from "@/lib/core/coded-issue";
import { validationError } from "@/lib/core/error-answer";
import { ChatBodies, ProviderMessageBodies, SendBodies } from "./schemas";

const to = "+14155550123";
const refusalOf = (schema: z.ZodType, body: unknown) => {
  const r = schema.safeParse(body);
  return r.success ? undefined : validationError(r.error, "body");
};

describe("per-version send schemas", () => {
  it("POST /send: v2 takes the Direct Send fields and ignores them; v3 refuses them with their own code", () => {
    const body = { to, template: { name: "order_update" }, category: "utility", ttlSeconds: 60 };
    expect(SendBodies.v2.safeParse(body).success).toBe(true);
    const refused = refusalOf(SendBodies.v3, body);
    expect(refused?.code).toBe("DIRECT_SEND_NOT_SUPPORTED_ON_TEMPLATE_SEND");
    expect(refused?.details).toEqual({ fields: ["category", "ttlSeconds"] });
    expect(SendBodies.v3.safeParse({ to, template: { name: "order_update" } }).success).toBe(true);
  });

  it("a malformed body stays VALIDATION_FAILED, naming only the malformed fields", () => {
    const refused = refusalOf(SendBodies.v3, { to: "not a phone", template: { name: "x" }, category: "utility" });
    expect(refused?.code).toBe("VALIDATION_FAILED");
    expect(refused?.details.fields).toEqual([{ path: "body.to", message: expect.any(String) }]);
  });

  it("POST /chat and /messages: category is v3 only", () => {
    const chat = { to, text: "Code 1234", category: "authentication" };
    expect(ChatBodies.v3.safeParse(chat).success).toBe(true);
    const v2 = refusalOf(ChatBodies.v2, chat);
    expect(v2?.code).toBe("VALIDATION_FAILED");
    expect(v2?.details.fields).toEqual([
      { path: "body.category", message: "Direct Send is available on /api/v3 only" },
    ]);
    const provider = { to, type: "text", text: { body: "Code 1234" }, category: "AUTHENTICATION" };
    expect(ProviderMessageBodies.v3.safeParse(provider).success).toBe(true);
    expect(refusalOf(ProviderMessageBodies.v2, provider)?.code).toBe("VALIDATION_FAILED");
    expect(ChatBodies.v2.safeParse({ to, text: "hi" }).success).toBe(true);
  });

  it("a coded refusal is answered on its own only when nothing else is wrong", () => {
    const coded: z.core.$ZodIssue = { code: "custom", path: [], message: "m", params: { errorCode: "NOT_FOUND" } };
    const plain: z.core.$ZodIssue = { code: "custom", path: ["to"], message: "bad" };
    expect(codedRefusal([coded])?.code).toBe("NOT_FOUND");
    expect(codedRefusal([plain, coded])).toBeUndefined();
    expect(codedRefusal([])).toBeUndefined();
  });
});
