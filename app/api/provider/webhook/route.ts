// The provider's callbacks (handshake and signed batches); see lib/domains/provider/callbacks.
import { handleProviderWebhook } from "@/lib/domains/provider/callbacks/handler";

export const dynamic = "force-dynamic";
export const GET = handleProviderWebhook;
export const POST = handleProviderWebhook;
