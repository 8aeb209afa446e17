import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import { formFields, pathFields, runAction, withLabels } from "./action-result";

describe("runAction", () => {
  it("puts a service's field error under the form field it is about", async () => {
    const result = await runAction(async () => {
      throw new ApiError("WEBHOOK_ENDPOINT_INVALID", "endpointUrl must not contain credentials", {
        field: "webhook.endpointUrl",
      });
    });
    expect(result).toEqual({
      ok: false,
      message: "endpointUrl must not contain credentials",
      code: "WEBHOOK_ENDPOINT_INVALID",
      fields: { endpointUrl: "endpointUrl must not contain credentials" },
    });
  });

  it("keys the API-named fields of a service error by form field", async () => {
    const result = await runAction(async () => {
      throw new ApiError("VALIDATION_FAILED", "webhook.verificationHeaderKey: needed", {
        fields: [{ path: "body.webhook.verificationHeaderKey", message: "required while a token is stored" }],
      });
    });
    expect(result).toMatchObject({ ok: false, fields: { verificationHeaderKey: "required while a token is stored" } });
  });

  it("answers zod issues with the first issue's message and every field", async () => {
    const Input = z.object({ name: z.string().min(1, "name is required"), events: z.array(z.string()) });
    const result = await runAction(async () => Input.parse({ name: "", events: [1] }));
    expect(result).toEqual({
      ok: false,
      message: "name is required",
      code: "VALIDATION_FAILED",
      fields: { name: "name is required", events: expect.any(String) },
    });
  });

  it("says nothing internal about an unexpected failure", async () => {
    const result = await runAction(async () => {
      throw new Error("relation webhook_destination does not exist at 10.0.0.7");
    });
    expect(result).toEqual({ ok: false, message: "The request could not be completed", code: "REQUEST_FAILED" });
  });

  it("passes the data through on success", async () => {
    expect(await runAction(async () => ({ uid: "w1" }))).toEqual({ ok: true, data: { uid: "w1" } });
  });
});

describe("formFields", () => {
  it("names a field by the last named segment of its path, first error wins", () => {
    expect(
      formFields([
        { path: "events.2", message: "Unsupported event" },
        { path: "events.3", message: "Duplicate event" },
        { path: "field.key", message: "snake_case" },
        { path: "", message: "no field" },
      ]),
    ).toEqual({ events: "Unsupported event", key: "snake_case" });
    expect(formFields([])).toBeUndefined();
  });
});

describe("pathFields", () => {
  it("keys an error by its path below the named part, so a form of lists can put it on its row", () => {
    expect(
      pathFields(
        [
          { path: "body.rule.actions.1.labels.0", message: 'no label named "refund"' },
          { path: "rule.conditions.0.value", message: "must not be empty" },
          { path: "rule.actions.1.labels.0", message: "second" },
          { path: "uid", message: "Expected an id" },
          { path: "", message: "no field" },
        ],
        "rule",
      ),
    ).toEqual({
      "actions.1.labels.0": 'no label named "refund"',
      "conditions.0.value": "must not be empty",
      uid: "Expected an id",
    });
    expect(pathFields([], "rule")).toBeUndefined();
  });

  it("is what runAction keys a refusal by when given", async () => {
    const result = await runAction(
      async () => {
        throw new ApiError("VALIDATION_FAILED", "body.rule.actions.1.labels.0: no label", {
          fields: [{ path: "body.rule.actions.1.labels.0", message: "no label" }],
        });
      },
      undefined,
      (fields) => pathFields(fields, "rule"),
    );
    expect(result).toMatchObject({ ok: false, fields: { "actions.1.labels.0": "no label" } });
  });
});

describe("server actions' raw input", () => {
  // Server actions' raw input follows the API's input rules (docs/dashboard.md "Server actions").
  it("is refused naming the form field before any work", async () => {
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

describe("withLabels", () => {
  it("says a refused field by the form's label", () => {
    const refused = {
      ok: false as const,
      message: "endpointUrl must use https://",
      code: "WEBHOOK_ENDPOINT_REQUIRES_HTTPS",
      fields: { endpointUrl: "endpointUrl must use https://" },
    };
    expect(withLabels(refused, { endpointUrl: "Endpoint URL" })).toEqual({
      ...refused,
      message: "Endpoint URL must use https://",
      fields: { endpointUrl: "Endpoint URL must use https://" },
    });
    expect(withLabels({ ok: true, data: 1 }, { endpointUrl: "Endpoint URL" })).toEqual({ ok: true, data: 1 });
  });
});
