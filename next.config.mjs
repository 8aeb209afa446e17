/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native or WASM packages that must stay as runtime requires, not bundled.
  serverExternalPackages: [
    "@node-rs/argon2",
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "pg",
    "pino",
    "ioredis",
    "@prisma/adapter-pg",
  ],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
