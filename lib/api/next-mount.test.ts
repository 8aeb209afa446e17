// Under Next the client address is what the process holding the socket signed
// (lib/core/client-ip.ts): X-Forwarded-For itself is never read here, with or without
// TRUST_PROXY (the signer applied that rule: lib/http/client-address.test.ts).
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, signedClientAddress, UNKNOWN_CLIENT } from "@/lib/core/client-ip";
import { resetEnvCache } from "@/lib/core/env";
import { nextClientIp } from "./next-mount";

const withHeaders = (headers: Record<string, string>) =>
  new Request("http://localhost/api/v3/openapi.json", { headers });

describe("the client address under the Next mount", () => {
  afterEach(() => {
    delete process.env.TRUST_PROXY;
    resetEnvCache();
  });

  it("is the signed address, never a client's X-Forwarded-For", () => {
    const signed = signedClientAddress("203.0.113.7") ?? "";
    expect(nextClientIp(withHeaders({ [CLIENT_ADDRESS_HEADER]: signed, "X-Forwarded-For": "6.6.6.6" }))).toBe(
      "203.0.113.7",
    );
    expect(nextClientIp(withHeaders({ "X-Forwarded-For": "203.0.113.7" }))).toBe(UNKNOWN_CLIENT);
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    expect(nextClientIp(withHeaders({ "X-Forwarded-For": "198.51.100.1, 203.0.113.7" }))).toBe(UNKNOWN_CLIENT);
  });

  it("a forged address reads as unknown: the shared budget, never the claim", () => {
    expect(nextClientIp(withHeaders({ [CLIENT_ADDRESS_HEADER]: "203.0.113.7 Zm9yZ2Vk" }))).toBe(UNKNOWN_CLIENT);
  });
});
