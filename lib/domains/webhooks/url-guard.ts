// SSRF guard for webhook endpoints (docs/api/webhooks.md "Destinations"): HTTPS only, no
// credentials, an allowed port (443, 8443 and 1024-65535 minus well-known database, cache
// and cluster-control ports, or WEBHOOK_ALLOWED_PORTS), and the host must not resolve to a private, loopback, link-local or
// otherwise internal address, unless WEBHOOK_ALLOW_PRIVATE_URLS=true (development, tests).
// Checked at create and update (validateEndpointUrl) and again at delivery time
// (assertDeliverableUrl before each request, guardedLookup at connect time so a DNS
// answer that changes between check and connect cannot reach an internal address).
import dns, { type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";
import { env } from "@/lib/core/env";
import { ApiError } from "@/lib/core/errors";

const MAX_URL_LENGTH = 2048;
const LOOKUP_TIMEOUT_MS = 5_000;

// Everything not listed here as allowed is refused (reserved, documentation and
// benchmarking ranges included): a webhook receiver is a public unicast address.
const ALLOWED_V4 = new Set(["unicast", "as112", "amt"]);
const ALLOWED_V6 = new Set(["unicast", "as112v6", "amt"]);
// IPv6 ranges that carry an IPv4 address: judged by the IPv4 address inside.
const EMBEDS_V4 = new Set(["ipv4Mapped", "rfc6145", "rfc6052", "6to4"]);

const REASON: Record<string, string> = {
  private: "a private (RFC 1918) address",
  loopback: "a loopback address",
  linkLocal: "a link-local address",
  uniqueLocal: "a unique-local (private IPv6) address",
  carrierGradeNat: "a carrier-grade NAT address",
  multicast: "a multicast address",
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  deprecatedSiteLocal: "a site-local address",
};

function embeddedV4(ip: ipaddr.IPv6, range: string): ipaddr.IPv4 {
  const b = ip.toByteArray();
  // 6to4 (2002:AABB:CCDD::/48) keeps the IPv4 address in bytes 2..5; the others in the last 4.
  const bytes = range === "6to4" ? b.slice(2, 6) : b.slice(12, 16);
  return new ipaddr.IPv4(bytes);
}

/** Why an address may not receive webhooks, or null when it may. Unparseable: refused. */
export function forbiddenReason(address: string): string | null {
  let ip: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    ip = ipaddr.parse(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  } catch {
    return "not an IP address";
  }
  if (ip.kind() === "ipv4") {
    const range = (ip as ipaddr.IPv4).range();
    return ALLOWED_V4.has(range) ? null : (REASON[range] ?? `a reserved address (${range})`);
  }
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  if (EMBEDS_V4.has(range)) return forbiddenReason(embeddedV4(v6, range).toString());
  // ::/96 (deprecated IPv4-compatible addresses, :: and ::1 included).
  if (v6.parts.slice(0, 6).every((p) => p === 0)) return REASON[range] ?? "an IPv4-compatible IPv6 address";
  return ALLOWED_V6.has(range) ? null : (REASON[range] ?? `a reserved address (${range})`);
}

export function isForbiddenAddress(address: string): boolean {
  return forbiddenReason(address) !== null;
}

const allowPrivate = () => env().WEBHOOK_ALLOW_PRIVATE_URLS;

// Services that listen on an internal network and speak a protocol a forged HTTP request
// can talk to (databases, caches, queues, cluster control planes): never a webhook receiver.
const DENIED_BY_SERVICE: Record<string, number[]> = {
  "SQL Server, Oracle": [1433, 1521],
  "Docker API, etcd": [2375, 2376, 2379, 2380],
  MySQL: [3306],
  "Erlang port mapper, RabbitMQ": [4369, 5672, 15672, 25672],
  "PostgreSQL, PgBouncer": [5432, 6432],
  CouchDB: [5984, 6984],
  "Redis, Sentinel, cluster bus": [6379, 6380, 16379, 26379],
  "Kubernetes API, kubelet": [6443, 10250, 10255],
  Cassandra: [7000, 7001, 9042, 9160],
  "InfluxDB, Consul": [8086, 8500, 8600],
  "Kafka, ZooKeeper": [9092, 2181],
  "Elasticsearch, OpenSearch": [9200, 9300],
  memcached: [11211],
  CockroachDB: [26257],
  MongoDB: [27017, 27018, 27019, 28017],
  RethinkDB: [28015, 29015],
};
export const DENIED_PORTS: ReadonlySet<number> = new Set(Object.values(DENIED_BY_SERVICE).flat());

export type PortRanges = readonly (readonly [number, number])[];

/** Whether a webhook may be delivered to this TCP port. `configured`: WEBHOOK_ALLOWED_PORTS. */
export function isAllowedPort(port: number, configured: PortRanges | undefined = env().WEBHOOK_ALLOWED_PORTS): boolean {
  if (configured) return configured.some(([lo, hi]) => port >= lo && port <= hi);
  if (port === 443 || port === 8443) return true;
  return port >= 1024 && port <= 65535 && !DENIED_PORTS.has(port);
}

export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

const systemResolver: Resolver = (hostname) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("DNS lookup timed out")), LOOKUP_TIMEOUT_MS);
    dns.lookup(hostname, { all: true, verbatim: true }, (err, addresses) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(addresses);
    });
  });

export type GuardOptions = {
  /** Host resolution (tests inject one); defaults to the system resolver. */
  resolve?: Resolver;
  /** Defaults to env().WEBHOOK_ALLOW_PRIVATE_URLS. */
  allowPrivate?: boolean;
};

const invalid = (message: string, reason: string) =>
  new ApiError("WEBHOOK_ENDPOINT_INVALID", message, { field: "webhook.endpointUrl", reason });

/** Parses the URL and applies the shape rules (no network). */
export function parseEndpointUrl(raw: unknown, allow = allowPrivate()): URL {
  if (typeof raw !== "string" || raw.trim() === "") throw invalid("endpointUrl is required", "missing");
  const text = raw.trim();
  if (text.length > MAX_URL_LENGTH) {
    throw invalid(`endpointUrl is longer than ${MAX_URL_LENGTH} characters`, "too_long");
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalid(`endpointUrl "${text}" is not a valid absolute URL`, "malformed");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw invalid(`endpointUrl must be an https:// URL (got ${url.protocol.replace(/:$/, "")})`, "scheme");
  }
  if (url.username || url.password) {
    throw invalid(
      "endpointUrl must not contain credentials (user:password@); use the verification header",
      "credentials",
    );
  }
  if (!url.hostname) throw invalid("endpointUrl has no host", "malformed");
  if (url.protocol === "http:" && !allow) {
    throw new ApiError("WEBHOOK_ENDPOINT_REQUIRES_HTTPS", "endpointUrl must use https://", {
      field: "webhook.endpointUrl",
    });
  }
  const port = url.port ? Number(url.port) : url.protocol === "https:" ? 443 : 80;
  if (!isAllowedPort(port)) {
    throw invalid(
      `endpointUrl port ${port} is not allowed; use 443, 8443 or a port from 1024 to 65535 that is not a well-known database or cache port`,
      "forbidden_port",
    );
  }
  return url;
}

async function resolveHost(hostname: string, resolve: Resolver): Promise<string[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host)) return [host];
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    throw invalid(`endpointUrl host "${host}" could not be resolved`, "unresolvable");
  }
  if (addresses.length === 0) throw invalid(`endpointUrl host "${host}" could not be resolved`, "unresolvable");
  return addresses.map((a) => a.address);
}

/**
 * The create/update check: returns the normalised URL (href) or throws
 * WEBHOOK_ENDPOINT_INVALID / WEBHOOK_ENDPOINT_REQUIRES_HTTPS. With private URLs allowed
 * the host is not resolved (development and tests run without DNS).
 */
export async function validateEndpointUrl(raw: unknown, options: GuardOptions = {}): Promise<string> {
  const allow = options.allowPrivate ?? allowPrivate();
  const url = parseEndpointUrl(raw, allow);
  if (allow) return url.href;
  const host = url.hostname.replace(/^\[|\]$/g, "");
  for (const address of await resolveHost(url.hostname, options.resolve ?? systemResolver)) {
    const reason = forbiddenReason(address);
    if (reason) {
      const shown = address === host ? address : `"${host}" (resolves to ${address})`;
      throw invalid(
        `endpointUrl host ${shown} is ${reason}; webhooks are delivered to public addresses only`,
        "forbidden_address",
      );
    }
  }
  return url.href;
}

/** The same checks at delivery time (the worker calls this before each request). */
export async function assertDeliverableUrl(url: string, options: GuardOptions = {}): Promise<string> {
  return validateEndpointUrl(url, options);
}

export class ForbiddenAddressError extends Error {
  readonly code = "ERR_WEBHOOK_FORBIDDEN_ADDRESS";
}

type LookupAll = (
  hostname: string,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemLookupAll: LookupAll = (hostname, callback) =>
  dns.lookup(hostname, { all: true, verbatim: true }, callback);

/**
 * A dns.lookup-compatible function that refuses forbidden answers: give it to undici's
 * `new Agent({ connect: { lookup } })` or http.request's `lookup`. Node does not call
 * lookup for an IP-literal host: assertDeliverableUrl covers those.
 */
export function createGuardedLookup(options: { allowPrivate?: boolean; lookupAll?: LookupAll } = {}): LookupFunction {
  const lookupAll = options.lookupAll ?? systemLookupAll;
  return (hostname, lookupOptions, callback) => {
    const wantAll = typeof lookupOptions === "object" && lookupOptions !== null && lookupOptions.all === true;
    const fail = (err: NodeJS.ErrnoException) => callback(err, wantAll ? [] : "", undefined);
    lookupAll(hostname, (err, addresses) => {
      if (err) return fail(err);
      if (!(options.allowPrivate ?? allowPrivate())) {
        for (const a of addresses) {
          const reason = forbiddenReason(a.address);
          if (reason)
            return fail(new ForbiddenAddressError(`Refusing to connect to ${hostname}: ${a.address} is ${reason}`));
        }
      }
      const raw = typeof lookupOptions === "object" && lookupOptions !== null ? lookupOptions.family : undefined;
      const family = raw === "IPv4" ? 4 : raw === "IPv6" ? 6 : raw;
      const wanted = family === 4 || family === 6 ? addresses.filter((a) => a.family === family) : addresses;
      const first = wanted[0];
      if (!first) return fail(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }));
      if (wantAll) return callback(null, wanted);
      return callback(null, first.address, first.family);
    });
  };
}

/** The delivery-time lookup (reads WEBHOOK_ALLOW_PRIVATE_URLS on each call). */
export const guardedLookup: LookupFunction = createGuardedLookup();
