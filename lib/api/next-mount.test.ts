// Under Next alone the client's own X-Forwarded-For is not trusted
// unless TRUST_PROXY says a proxy in front sets it.
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { UNKNOWN_CLIENT } from "@/lib/http/client-ip";
import { nextClientIp } from "./next-mount";

const withFor = (value: string) =>
  new Request("http://localhost/api/v3/openapi.json", { headers: { "X-Forwarded-For": value } });

describe("the client address under the Next mount", () => {
  afterEach(() => {
    delete process.env.TRUST_PROXY;
    resetEnvCache();
  });

  it("ignores X-Forwarded-For without TRUST_PROXY: every client shares one per-IP budget", () => {
    expect(nextClientIp(withFor("203.0.113.7"))).toBe(UNKNOWN_CLIENT);
    expect(nextClientIp(withFor("198.51.100.1, 203.0.113.7"))).toBe(UNKNOWN_CLIENT);
  });

  it("takes the entry the trusted proxy appended under TRUST_PROXY", () => {
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    expect(nextClientIp(withFor("198.51.100.1, 203.0.113.7"))).toBe("203.0.113.7");
  });
});
