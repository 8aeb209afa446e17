// Dashboard token creation: the sender must be one of the principal's own.
import type { Principal } from "@/lib/domains/auth/principal";
import { resolveSender } from "@/lib/domains/senders/service";
import type { TokenCreateValue } from "./schemas";
import { issueToken } from "./service";

export async function createTokenFor(p: Principal, input: TokenCreateValue) {
  const sender = input.senderId
    ? await resolveSender(p, input.senderId, { useDefault: false, requireSetup: false })
    : undefined;
  return issueToken(
    {
      customerId: p.customerId,
      name: input.name,
      senderId: sender?.id ?? null,
      expiresAt: input.expiresOn ? new Date(`${input.expiresOn}T00:00:00Z`) : null,
      permissions: input.permissions,
    },
    p,
  );
}
