// The lean server for bench/api.ts: scripts/serve-api.ts, optionally with the billing
// count cache disabled (BENCH_COUNT_TTL_MS=0) to show what an exact COUNT(*) per request costs.
import { configureCountCache } from "@/lib/billing/count-cache";

const ttl = process.env.BENCH_COUNT_TTL_MS;
if (ttl !== undefined && ttl !== "") configureCountCache({ ttlMs: Number(ttl) });
await import("../scripts/serve-api");
