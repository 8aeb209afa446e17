// The provider's callbacks (handshake and signed batches); see lib/http/provider-webhook.ts.
import { handleProviderWebhook } from "@/lib/http/provider-webhook";

export const dynamic = "force-dynamic";
export const GET = handleProviderWebhook;
export const POST = handleProviderWebhook;
