// Everything the lean server serves: the health endpoint, the public API and the provider
// callback endpoint.
import { GRAPH_PREFIX, handleGraphRequest } from "@/lib/api/graph-mount";
import type { ProcessRole } from "@/lib/domains/health/check";
import { handleProviderWebhook } from "@/lib/http/provider-webhook";
import { healthMount } from "./health";
import { apiMount, type Mount } from "./lean-server";

/** Stock provider SDKs with only their base URL changed (lib/api/graph-mount.ts). */
const graphMount: Mount = {
  prefix: GRAPH_PREFIX,
  handle: (request, clientIp) => handleGraphRequest(request, { clientIp }),
};

export const providerMount: Mount = {
  prefix: "/api/provider/webhook",
  handle: (request) => handleProviderWebhook(request),
};

/** The mounts of one process; its GET /api/health names its role (docs/deployment.md). */
export const mountsFor = (role: ProcessRole): Mount[] => [healthMount(role), providerMount, graphMount, apiMount];

export const mounts: Mount[] = mountsFor("api");
