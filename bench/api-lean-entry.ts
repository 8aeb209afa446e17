// The lean server for bench/api.ts: scripts/serve-api.ts, optionally with the billing
// count cache disabled (BENCH_COUNT_TTL_MS=0) to show what an exact COUNT(*) per request costs,
// or the verified-token cache disabled (BENCH_TOKEN_CACHE=off) to show what it saves.
import { configureCountCache } from "@/lib/domains/billing/count-cache";
import { configureTokenCache } from "@/lib/domains/tokens/token-cache";

const ttl = process.env.BENCH_COUNT_TTL_MS;
if (ttl !== undefined && ttl !== "") configureCountCache({ ttlMs: Number(ttl) });
if (process.env.BENCH_TOKEN_CACHE === "off") configureTokenCache({ maxEntries: 0 });
await import("../scripts/serve-api");
