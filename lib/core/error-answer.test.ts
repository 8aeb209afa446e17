import { describe, expect, it } from "vitest";
import { z } from "zod";
import { errorAnswer, validationError } from "./error-answer";
import { ApiError } from "./errors";

describe("errorAnswer", () => {
  it("answers an ApiError with its table status, code, details, headers and fields", () => {
    const error = new ApiError(
      "VALIDATION_FAILED",
      "webhook.verificationHeaderKey: needed",
      { fields: [{ path: "body.webhook.verificationHeaderKey", message: "required while a token is stored" }] },
      { "X-Test": "1" },
    );
    expect(errorAnswer(error)).toEqual({
      status: 400,
      code: "VALIDATION_FAILED",
      kind: "VALIDATION_FAILED",
      message: "webhook.verificationHeaderKey: needed",
      fields: [{ path: "body.webhook.verificationHeaderKey", message: "required while a token is stored" }],
      details: {
        fields: [{ path: "body.webhook.verificationHeaderKey", message: "required while a token is stored" }],
      },
      headers: { "X-Test": "1" },
      unexpected: false,
    });
  });

  it("answers 429 and 405 as REQUEST_FAILED on the wire, keeping their status and kind", () => {
    const limited = errorAnswer(new ApiError("RATE_LIMITED", "Slow down"));
    expect(limited).toMatchObject({ status: 429, code: "REQUEST_FAILED", kind: "RATE_LIMITED", fields: [] });
    const method = errorAnswer(new ApiError("METHOD_NOT_ALLOWED", "No"));
    expect(method).toMatchObject({ status: 405, code: "REQUEST_FAILED", kind: "METHOD_NOT_ALLOWED" });
  });

  it("answers the body limit with its own code", () => {
    expect(errorAnswer(new ApiError("PAYLOAD_TOO_LARGE", "Big"))).toMatchObject({
      status: 413,
      code: "PAYLOAD_TOO_LARGE",
    });
  });

  it("names the one field of details.field with the error's message", () => {
    const error = new ApiError("WEBHOOK_ENDPOINT_INVALID", "endpointUrl must not contain credentials", {
      field: "webhook.endpointUrl",
      reason: "credentials",
    });
    expect(errorAnswer(error)).toMatchObject({
      status: 400,
      code: "WEBHOOK_ENDPOINT_INVALID",
      fields: [{ path: "webhook.endpointUrl", message: "endpointUrl must not contain credentials" }],
      details: { field: "webhook.endpointUrl", reason: "credentials" },
    });
  });

  it("answers a ZodError as VALIDATION_FAILED with every field named by its path", () => {
    const schema = z.object({ name: z.string().min(1, "name is required"), events: z.array(z.string()) });
    const parsed = schema.safeParse({ name: "", events: ["ok", 3] });
    if (parsed.success) throw new Error("expected a failure");
    const forForm = errorAnswer(parsed.error);
    expect(forForm).toMatchObject({ status: 400, code: "VALIDATION_FAILED", message: "name is required" });
    expect(forForm.fields.map((f) => f.path)).toEqual(["name", "events.1"]);
    expect(forForm.details.fields).toEqual(forForm.fields);

    const forApi = errorAnswer(parsed.error, { zodPrefix: "body" });
    expect(forApi.message).toBe("body.name: name is required");
    expect(forApi.fields.map((f) => f.path)).toEqual(["body.name", "body.events.1"]);
    expect(validationError(parsed.error, "body").details).toEqual(forApi.details);
  });

  it("answers a database refusal of the input (NUL in text) as VALIDATION_FAILED", () => {
    const refusal = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: "22021" });
    expect(errorAnswer(refusal)).toMatchObject({ status: 400, code: "VALIDATION_FAILED", unexpected: false });
  });

  it("answers anything else as a 500 REQUEST_FAILED that says nothing internal", () => {
    const secret = new Error("connect ECONNREFUSED 10.0.0.7:5432 password=hunter2");
    for (const caught of [secret, "a string", undefined, { weird: true }]) {
      const answer = errorAnswer(caught);
      expect(answer).toEqual({
        status: 500,
        code: "REQUEST_FAILED",
        kind: "REQUEST_FAILED",
        message: "The request could not be completed",
        fields: [],
        details: {},
        headers: {},
        unexpected: true,
      });
    }
    const withId = errorAnswer(secret, { requestId: "req_1" });
    expect(withId.message).toBe("The request could not be completed; quote the request id to support");
    expect(withId.details).toEqual({ requestId: "req_1" });
    expect(JSON.stringify(withId)).not.toContain("hunter2");
  });
});
