// The client address as Next's handlers read it (lib/core/client-ip.ts): only a value signed
// with the app's secret counts; anything a client could write reads as no address at all.
import { afterEach, describe, expect, it } from "vitest";
import {
  CLIENT_ADDRESS_HEADER,
  clientIpFrom,
  requestClientIp,
  signedClientAddress,
  UNKNOWN_CLIENT,
  verifiedClientAddress,
} from "./client-ip";
import { resetEnvCache } from "./env";

const headersWith = (value: string) => new Headers({ [CLIENT_ADDRESS_HEADER]: value, "x-forwarded-for": "6.6.6.6" });

afterEach(() => {
  delete process.env.TRUST_PROXY;
  process.env.NEXTAUTH_SECRET = "test-nextauth-secret-0123456789";
  resetEnvCache();
});

describe("the signed client address", () => {
  it("reads back the address it signed, IPv4 and IPv6", () => {
    for (const address of ["203.0.113.7", "::1", "2001:db8::5", "::ffff:127.0.0.2"]) {
      const signed = signedClientAddress(address) ?? "";
      expect(verifiedClientAddress(signed)).toBe(address);
      expect(requestClientIp(headersWith(signed))).toBe(address);
    }
  });

  it("refuses a value a client could write: another address, a made-up or missing signature, extra parts", () => {
    const signed = signedClientAddress("203.0.113.7") ?? "";
    const signature = signed.split(" ")[1];
    for (const forged of [
      `198.51.100.1 ${signature}`,
      "203.0.113.7 c2lnbmVk",
      "203.0.113.7",
      `${signed} extra`,
      "",
      ` ${signature}`,
    ]) {
      expect(verifiedClientAddress(forged), forged).toBeNull();
      // Never the claim, never X-Forwarded-For: the one shared budget of unknown clients.
      expect(requestClientIp(headersWith(forged)), forged).toBe(UNKNOWN_CLIENT);
    }
  });

  it("is bound to the app's secret: a value signed under another secret is refused", () => {
    const signed = signedClientAddress("203.0.113.7") ?? "";
    process.env.NEXTAUTH_SECRET = "another-secret-0123456789abcdef";
    resetEnvCache();
    expect(verifiedClientAddress(signed)).toBeNull();
    expect(verifiedClientAddress(signedClientAddress("203.0.113.7"))).toBe("203.0.113.7");
  });

  it("without NEXTAUTH_SECRET nothing is signed and nothing verifies", () => {
    const signed = signedClientAddress("203.0.113.7") ?? "";
    delete process.env.NEXTAUTH_SECRET;
    resetEnvCache();
    expect(signedClientAddress("203.0.113.7")).toBeNull();
    expect(verifiedClientAddress(signed)).toBeNull();
  });
});

describe("the address of a socket", () => {
  it("is the socket's, whatever X-Forwarded-For says, unless TRUST_PROXY; then the entry the proxy appended", () => {
    expect(clientIpFrom("6.6.6.6", "127.0.0.2")).toBe("127.0.0.2");
    expect(clientIpFrom(undefined, undefined)).toBe(UNKNOWN_CLIENT);
    process.env.TRUST_PROXY = "true";
    resetEnvCache();
    expect(clientIpFrom("6.6.6.6, 203.0.113.9", "127.0.0.2")).toBe("203.0.113.9");
    expect(clientIpFrom(null, "127.0.0.2")).toBe("127.0.0.2");
  });
});
