import { describe, expect, it } from "vitest";
import { call, createTestCustomer } from "./factory";

describe("router smoke", () => {
  it("answers unknown routes with the envelope and a request id", async () => {
    const { globalToken } = await createTestCustomer();
    const res = await call("GET", "/api/v3/nope", { token: globalToken });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error_code: "NOT_FOUND", details: {} });
    expect(res.headers.get("x-service-request-id")).toBe(res.body.metadata.requestId);
  });
});
