import { PHASE_DEVELOPMENT_SERVER } from "next/constants.js";

/**
 * Security headers of every page and dashboard handler: no framing
 * (frame-ancestors 'none' and X-Frame-Options for older browsers), no MIME sniffing, no
 * full URLs in Referer to other sites. Next's own inline bootstrap scripts and the theme
 * script in app/layout.tsx need 'unsafe-inline' (nonces would force every page dynamic);
 * the dev server also needs eval (React's dev tooling) and its websocket.
 */
function securityHeaders(dev) {
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'unsafe-inline'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${dev ? " ws: wss:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return [
    { key: "Content-Security-Policy", value: csp },
    { key: "X-Frame-Options", value: "DENY" },
    { key: "X-Content-Type-Options", value: "nosniff" },
    { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  ];
}

/** @type {(phase: string) => import('next').NextConfig} */
const nextConfig = (phase) => ({
  // Native or WASM packages that must stay as runtime requires, not bundled.
  serverExternalPackages: [
    "@node-rs/argon2",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pg",
    "pino",
    "ioredis",
    "@prisma/adapter-pg",
    // Starts its worker threads from its own files (lib/domains/chatbots/rule-pool.ts).
    "piscina",
  ],
  poweredByHeader: false,
  typedRoutes: false,
  // The test runner (scripts/test.mjs) type-checks the whole project, Next's route types included
  // (`next typegen`, then `tsc --noEmit`), before its build: that build skips Next's second check
  // of the same files, and the filesystem cache a fresh clone's one build would only write.
  ...(process.env.SWITCHBOARD_TYPES_CHECKED === "1"
    ? { typescript: { ignoreBuildErrors: true }, experimental: { turbopackFileSystemCacheForBuild: false } }
    : {}),
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders(phase === PHASE_DEVELOPMENT_SERVER) }];
  },
});

export default nextConfig;
