// An error answer's docUrl: the error reference's anchor for the status table's code,
// relative without PUBLIC_URL, absolute from it when set.
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { errorDocUrl } from "./envelope";

const saved = process.env.PUBLIC_URL;

afterEach(() => {
  if (saved === undefined) delete process.env.PUBLIC_URL;
  else process.env.PUBLIC_URL = saved;
  resetEnvCache();
});

describe("errorDocUrl", () => {
  it("is relative without PUBLIC_URL, with the code in lower case as the anchor", () => {
    delete process.env.PUBLIC_URL;
    resetEnvCache();
    expect(errorDocUrl("VALIDATION_FAILED")).toBe("/docs/errors#validation_failed");
    expect(errorDocUrl("RATE_LIMITED")).toBe("/docs/errors#rate_limited");
  });

  it("is absolute from PUBLIC_URL when it is set", () => {
    process.env.PUBLIC_URL = "https://switchboard.example.com/";
    resetEnvCache();
    expect(errorDocUrl("NOT_FOUND")).toBe("https://switchboard.example.com/docs/errors#not_found");
  });
});
