// The sender a per-sender page works on: ?sender= when given, else the default sender.

import { ApiError } from "@/lib/core/errors";
import type { Principal } from "@/lib/domains/auth/principal";
import { resolveSender, type Sender } from "@/lib/domains/senders/service";

/** undefined when the account has no sender at all (the page shows an empty state). */
export async function pageSender(p: Principal, requested: string | undefined): Promise<Sender | undefined> {
  try {
    return await resolveSender(p, requested, { useDefault: true, requireSetup: false });
  } catch (error) {
    if (error instanceof ApiError && error.code === "SENDER_NOT_FOUND" && !requested) return undefined;
    throw error;
  }
}

/** For actions that change a sender's webhooks: the sender must be set up. */
export async function actionSender(p: Principal, phone: string | undefined): Promise<Sender> {
  const sender = await resolveSender(p, phone, { useDefault: false, requireSetup: true });
  if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Pick a sender first");
  return sender;
}
