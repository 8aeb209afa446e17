import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "@/lib/core/errors";
import {
  createGuardedLookup,
  forbiddenReason,
  isAllowedPort,
  isForbiddenAddress,
  validateEndpointUrl,
} from "./url-guard";

const FORBIDDEN = [
  ["10.0.0.1", "private"],
  ["172.16.5.4", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["169.254.169.254", "link-local"],
  ["100.64.0.1", "carrier-grade NAT"],
  ["0.0.0.0", "unspecified"],
  ["224.0.0.251", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["192.0.2.10", "reserved"],
  ["240.0.0.1", "reserved"],
  ["::1", "loopback"],
  ["::", "unspecified"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["fc00::1", "unique-local"],
  ["fd12:3456:789a::1", "unique-local"],
  ["ff02::1", "multicast"],
  ["fec0::1", "site-local"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:169.254.169.254", "link-local"],
  ["64:ff9b::a00:1", "private"], // NAT64 of 10.0.0.1
  ["2002:a00:1::1", "private"], // 6to4 of 10.0.0.1
  ["::127.0.0.1", "address"], // deprecated IPv4-compatible form
  ["::a00:1", "address"],
  ["2001:db8::1", "reserved"],
  ["not-an-ip", "not an IP"],
] as const;

const ALLOWED = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.215.14",
  "2606:4700:4700::1111",
  "2001:4860:4860::8888",
  "::ffff:8.8.8.8",
];

describe("address classes", () => {
  it.each(FORBIDDEN)("refuses %s (%s)", (ip, why) => {
    expect(isForbiddenAddress(ip)).toBe(true);
    expect(forbiddenReason(ip)).toContain(why);
  });

  it.each(ALLOWED)("allows the public address %s", (ip) => {
    expect(forbiddenReason(ip)).toBeNull();
  });
});

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string } | "ok"> {
  try {
    await promise;
    return "ok";
  } catch (e) {
    if (e instanceof ApiError) return { code: e.code, message: e.message };
    throw e;
  }
}

const strict = { allowPrivate: false } as const;

describe("endpoint ports", () => {
  it.each([443, 8443, 1024, 3000, 8080, 9999, 40000, 65535])("allows %i by default", (port) => {
    expect(isAllowedPort(port, undefined)).toBe(true);
  });
  it.each([22, 25, 80, 1023, 3306, 5432, 6379, 9200, 11211, 27017, 2379, 65536, 0])("refuses %i by default", (port) => {
    expect(isAllowedPort(port, undefined)).toBe(false);
  });
  it("a configured list replaces the default", () => {
    const ranges = [
      [443, 443],
      [6379, 6379],
      [9000, 9100],
    ] as const;
    expect([443, 6379, 9000, 9100].every((p) => isAllowedPort(p, ranges))).toBe(true);
    expect([8443, 8999, 9101, 22].some((p) => isAllowedPort(p, ranges))).toBe(false);
  });
  it("applies to IP literals and names, with or without private URLs allowed", async () => {
    for (const options of [strict, { allowPrivate: true }]) {
      const result = await codeOf(validateEndpointUrl("https://8.8.8.8:22/hook", options));
      expect(result).toMatchObject({ code: "WEBHOOK_ENDPOINT_INVALID", message: expect.stringContaining("port 22") });
    }
    expect(await validateEndpointUrl("https://8.8.8.8:8443/hook", strict)).toBe("https://8.8.8.8:8443/hook");
  });
});

describe("validateEndpointUrl with private URLs refused", () => {
  it.each([
    "not a url",
    "/relative/path",
    "ftp://8.8.8.8/hook",
    "javascript:alert(1)",
    "https://user:pw@8.8.8.8/hook",
    "https://token@8.8.8.8/hook",
    `https://8.8.8.8/${"a".repeat(2100)}`,
    "",
  ])("%s is WEBHOOK_ENDPOINT_INVALID", async (url) => {
    expect(await codeOf(validateEndpointUrl(url, strict))).toMatchObject({ code: "WEBHOOK_ENDPOINT_INVALID" });
  });

  it("plain http is WEBHOOK_ENDPOINT_REQUIRES_HTTPS", async () => {
    expect(await codeOf(validateEndpointUrl("http://8.8.8.8/hook", strict))).toMatchObject({
      code: "WEBHOOK_ENDPOINT_REQUIRES_HTTPS",
    });
  });

  it.each([
    "https://127.0.0.1/hook",
    "https://10.1.2.3/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[fd00::1]/hook",
    "https://0x7f.1/hook", // the URL parser normalises these to 127.0.0.1
    "https://2130706433/hook",
    "https://localhost/hook",
    "https://LOCALHOST:8443/hook",
  ])("%s resolves to an internal address: WEBHOOK_ENDPOINT_INVALID", async (url) => {
    const result = await codeOf(validateEndpointUrl(url, strict));
    expect(result).toMatchObject({ code: "WEBHOOK_ENDPOINT_INVALID" });
    expect(result !== "ok" && result.message).toMatch(/public addresses only/);
  });

  it("accepts a public https URL and normalises it", async () => {
    expect(await validateEndpointUrl("  https://8.8.8.8/hooks?x=1  ", strict)).toBe("https://8.8.8.8/hooks?x=1");
    expect(await validateEndpointUrl("https://[2606:4700:4700::1111]:8443/h", strict)).toBe(
      "https://[2606:4700:4700::1111]:8443/h",
    );
  });

  it("resolves host names and refuses when any answer is internal", async () => {
    const resolveTo = (...addresses: string[]) => ({
      ...strict,
      resolve: async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
    });
    expect(await validateEndpointUrl("https://hooks.example.test/in", resolveTo("8.8.4.4"))).toBe(
      "https://hooks.example.test/in",
    );
    const mixed = await codeOf(validateEndpointUrl("https://hooks.example.test/in", resolveTo("8.8.4.4", "10.0.0.7")));
    expect(mixed).toMatchObject({ code: "WEBHOOK_ENDPOINT_INVALID" });
    expect(mixed !== "ok" && mixed.message).toContain('"hooks.example.test" (resolves to 10.0.0.7)');
    expect(await codeOf(validateEndpointUrl("https://rebind.example.test/", resolveTo("::1")))).toMatchObject({
      code: "WEBHOOK_ENDPOINT_INVALID",
    });
  });

  it("an unresolvable host is WEBHOOK_ENDPOINT_INVALID", async () => {
    const failing = {
      ...strict,
      resolve: async () => {
        throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
      },
    };
    const result = await codeOf(validateEndpointUrl("https://nowhere.example.invalid/", failing));
    expect(result).toMatchObject({ code: "WEBHOOK_ENDPOINT_INVALID" });
    expect(result !== "ok" && result.message).toContain("could not be resolved");
    const empty = { ...strict, resolve: async () => [] };
    expect(await codeOf(validateEndpointUrl("https://empty.example.test/", empty))).toMatchObject({
      code: "WEBHOOK_ENDPOINT_INVALID",
    });
  });
});

describe("validateEndpointUrl with WEBHOOK_ALLOW_PRIVATE_URLS", () => {
  const allow = { allowPrivate: true } as const;
  it("allows http and internal hosts, without resolving", async () => {
    expect(await validateEndpointUrl("http://127.0.0.1:3000/hook", allow)).toBe("http://127.0.0.1:3000/hook");
    expect(await validateEndpointUrl("https://localhost/hook", allow)).toBe("https://localhost/hook");
  });
  it("still refuses malformed URLs, other schemes and credentials", async () => {
    for (const url of ["nope", "ftp://127.0.0.1/", "http://a:b@127.0.0.1/"]) {
      expect(await codeOf(validateEndpointUrl(url, allow))).toMatchObject({ code: "WEBHOOK_ENDPOINT_INVALID" });
    }
  });
});

describe("guarded lookup (connect time)", () => {
  const fake =
    (...addresses: string[]) =>
    (_host: string, cb: (err: NodeJS.ErrnoException | null, a: { address: string; family: number }[]) => void) =>
      cb(
        null,
        addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
      );
  const lookup = (fn: ReturnType<typeof createGuardedLookup>, options: { all?: boolean; family?: number }) =>
    new Promise<{ err: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      fn("hooks.example.test", options, (err, address, family) => resolve({ err, address, family })),
    );

  it("refuses an answer with an internal address", async () => {
    const fn = createGuardedLookup({ allowPrivate: false, lookupAll: fake("8.8.8.8", "127.0.0.1") });
    const { err } = await lookup(fn, {});
    expect(err?.message).toContain("127.0.0.1 is a loopback address");
    expect((await lookup(fn, { all: true })).err).toBeTruthy();
  });

  it("passes public answers through in both calling styles", async () => {
    const fn = createGuardedLookup({ allowPrivate: false, lookupAll: fake("2606:4700:4700::1111", "8.8.8.8") });
    expect(await lookup(fn, {})).toMatchObject({ err: null, address: "2606:4700:4700::1111", family: 6 });
    expect(await lookup(fn, { family: 4 })).toMatchObject({ err: null, address: "8.8.8.8", family: 4 });
    expect((await lookup(fn, { all: true })).address).toHaveLength(2);
  });

  it("lets internal answers through when private URLs are allowed", async () => {
    const fn = createGuardedLookup({ allowPrivate: true, lookupAll: fake("10.0.0.1") });
    expect(await lookup(fn, {})).toMatchObject({ err: null, address: "10.0.0.1" });
  });

  describe("plugged into undici", () => {
    const server = createServer((_req, res) => res.end("ok"));
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("cannot connect to a host name that resolves to loopback", async () => {
      const agent = new Agent({ connect: { lookup: createGuardedLookup({ allowPrivate: false }) } });
      await expect(request(`http://localhost:${port}/`, { dispatcher: agent })).rejects.toThrow(/loopback/);
      await agent.close();
    });

    it("connects when private URLs are allowed", async () => {
      const agent = new Agent({ connect: { lookup: createGuardedLookup({ allowPrivate: true }) } });
      const res = await request(`http://localhost:${port}/`, { dispatcher: agent });
      expect(await res.body.text()).toBe("ok");
      await agent.close();
    });
  });
});
