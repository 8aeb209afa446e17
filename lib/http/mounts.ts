// Everything the lean server serves: the public API and the provider callback endpoint.
import { handleProviderWebhook } from "@/lib/provider/callbacks/handler";
import { apiMount, type Mount } from "./lean-server";

export const providerMount: Mount = {
  prefix: "/api/provider/webhook",
  handle: (request) => handleProviderWebhook(request),
};

export const mounts: Mount[] = [providerMount, apiMount];
