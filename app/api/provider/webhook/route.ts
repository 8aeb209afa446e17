// The provider's callbacks (handshake and signed batches); see lib/provider/callbacks.
import { handleProviderWebhook } from "@/lib/provider/callbacks/handler";

export const dynamic = "force-dynamic";
export const GET = handleProviderWebhook;
export const POST = handleProviderWebhook;
