// next-auth's cookies are Secure when the dashboard is served over HTTPS,
// directly (NEXTAUTH_URL https) or behind a trusted TLS-terminating proxy.
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import { authOptions } from "./next-auth";
import { servedOverHttps } from "./secure-cookies";

const forwarded = (proto: string) => new Headers({ "X-Forwarded-Proto": proto });
const setEnv = (vars: Record<string, string>) => {
  Object.assign(process.env, vars);
  resetEnvCache();
};

describe("Secure session cookies", () => {
  afterEach(() => {
    delete process.env.NEXTAUTH_URL;
    delete process.env.TRUST_PROXY;
    resetEnvCache();
  });

  it("plain http, or a client's own X-Forwarded-Proto without TRUST_PROXY: not Secure", () => {
    expect(servedOverHttps(forwarded("https"))).toBe(false);
    expect(authOptions().useSecureCookies).toBe(false);
  });

  it("NEXTAUTH_URL https: Secure for every request", () => {
    setEnv({ NEXTAUTH_URL: "https://dash.example.com" });
    expect(servedOverHttps(undefined)).toBe(true);
    expect(authOptions().useSecureCookies).toBe(true);
  });

  it("behind TRUST_PROXY: Secure when the proxy's X-Forwarded-Proto entry is https", () => {
    setEnv({ TRUST_PROXY: "true" });
    expect(servedOverHttps(forwarded("https"))).toBe(true);
    expect(servedOverHttps(forwarded("http"))).toBe(false);
    // The proxy appends its own entry; a client's claim before it does not count.
    expect(servedOverHttps(forwarded("https, http"))).toBe(false);
    expect(authOptions(servedOverHttps(forwarded("https"))).useSecureCookies).toBe(true);
  });
});
