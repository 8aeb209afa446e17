// Which provider this process talks to: the HTTP client when credentials are configured
// (or PROVIDER_MODE=http), else the built-in simulator. One instance per process.
import { env } from "@/lib/core/env";
import { createHttpClient } from "./http-client";
import { ProviderSimulator } from "./simulator";
import type { ProviderClient } from "./types";

const g = globalThis as { __switchboardProvider?: ProviderClient };

export function providerMode(): "simulator" | "http" {
  const e = env();
  if (e.PROVIDER_MODE !== "auto") return e.PROVIDER_MODE;
  return e.PROVIDER_ACCESS_TOKEN || e.PROVIDER_ACCESS_TOKENS ? "http" : "simulator";
}

export function getProvider(): ProviderClient {
  g.__switchboardProvider ??= providerMode() === "http" ? createHttpClient() : new ProviderSimulator();
  return g.__switchboardProvider;
}

/** Replaces the provider (tests, benchmarks). */
export function setProvider(client: ProviderClient | undefined): void {
  g.__switchboardProvider = client;
}

/** The simulator when it is the active provider (test hooks), else undefined. */
export function getSimulator(): ProviderSimulator | undefined {
  const p = getProvider();
  return p instanceof ProviderSimulator ? p : undefined;
}
