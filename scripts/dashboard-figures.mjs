// Dashboard figures for docs/benchmarks.md, against a running app (npm start):
//   node scripts/dashboard-figures.mjs [baseUrl] [requests] [--cold]
// 1. first-load JS per dashboard route: every <script src> the page's HTML loads, gzip-compressed, summed;
// 2. server time of the billing explorer (time to the full HTML, p50/p95) with a session cookie.
import { gzipSync } from "node:zlib";

const base = process.argv[2] ?? "http://localhost:3000";
const requests = Number(process.argv[3] ?? 50);
const email = process.env.DASHBOARD_EMAIL ?? "demo@switchboard.test";
const password = process.env.DASHBOARD_PASSWORD ?? "switchboard-demo";

function cookiesFrom(res) {
  return res.headers.getSetCookie().map((c) => c.split(";")[0]);
}

async function login() {
  const csrfRes = await fetch(`${base}/api/auth/csrf`);
  const jar = cookiesFrom(csrfRes);
  const { csrfToken } = await csrfRes.json();
  const res = await fetch(`${base}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: jar.join("; ") },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
  });
  const session = cookiesFrom(res).find((c) => c.startsWith("next-auth.session-token="));
  if (!session) throw new Error(`login failed (${res.status})`);
  return [...jar, session].join("; ");
}

const cookie = await login();
const get = (path) => fetch(`${base}${path}`, { headers: { Cookie: cookie }, redirect: "manual" });

const routes = ["/billing", "/billing/ledger", "/contacts", "/webhooks", "/tokens", "/senders", "/login", "/signup"];
const sizeCache = new Map();
console.log("| route | first-load JS (gzip) | files |\n| --- | --- | --- |");
for (const route of routes) {
  const html = await (await get(route)).text();
  const srcs = [...new Set([...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]))];
  let total = 0;
  for (const src of srcs) {
    if (!sizeCache.has(src)) sizeCache.set(src, gzipSync(Buffer.from(await (await get(src)).arrayBuffer())).length);
    total += sizeCache.get(src);
  }
  console.log(`| ${route} | ${(total / 1024).toFixed(1)} kB | ${srcs.length} |`);
}

// "cold": every request a filter set not seen before (a different dateFrom), so nothing is shared.
const cold = process.argv.includes("--cold");
const pathFor = (i) =>
  cold ? `/billing?dateFrom=${new Date(Date.UTC(2020, 0, 1) + i * 86_400_000).toISOString().slice(0, 10)}` : "/billing";
const times = [];
for (let i = 0; i < requests + 5; i++) {
  const start = performance.now();
  const res = await get(pathFor(i));
  await res.text();
  if (res.status !== 200) throw new Error(`/billing answered ${res.status}`);
  if (i >= 5) times.push(performance.now() - start); // the first 5 warm up
}
times.sort((a, b) => a - b);
const pct = (q) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)];
console.log(
  `\n/billing${cold ? " (cold: a new filter set each time)" : ""} server time over ${times.length} sequential requests: p50 ${pct(0.5).toFixed(0)} ms, p95 ${pct(0.95).toFixed(0)} ms, max ${times.at(-1).toFixed(0)} ms`,
);
