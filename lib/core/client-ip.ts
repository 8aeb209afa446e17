// The client's address, for every per-address limit and the audit log (docs/security.md
// "Client addresses"). The process that holds the socket resolves it (the socket's address,
// or behind TRUST_PROXY the proxy's X-Forwarded-For entry); Next.js route handlers, server
// actions and next-auth's authorize never see the socket, so it reaches them in one header,
// CLIENT_ADDRESS_HEADER, signed with a key derived from NEXTAUTH_SECRET. Its writers:
// `npm start`'s front server (lib/http/front-server.ts) for what it passes to Next, and,
// inside the Next process, lib/http/client-address.ts for every request that does not carry
// the front server's (`npm run dev`, `next start` reached directly). A copy a client sends is
// replaced before Next reads it; one that slipped through (a request Next took before its
// instrumentation ran) fails the signature: a client never chooses its address.
import { createHmac, timingSafeEqual } from "node:crypto";
import { env } from "@/lib/core/env";

/** The key of clients whose address is not known (every such client shares one budget). */
export const UNKNOWN_CLIENT = "unknown";

/** The resolved address and its signature: `<address> <signature>`. */
export const CLIENT_ADDRESS_HEADER = "x-switchboard-client-address";

/**
 * The client address: the socket's; behind a trusted proxy (TRUST_PROXY), the last
 * X-Forwarded-For entry, which that proxy appended (entries before it are the client's
 * own and can be anything). Without TRUST_PROXY the header is never read.
 */
export function clientIpFrom(forwardedFor: string | null | undefined, socketIp: string | undefined): string {
  if (env().TRUST_PROXY) {
    const forwarded = forwardedFor?.split(",").at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return socketIp || UNKNOWN_CLIENT;
}

let derived: { secret: string; key: Buffer } | undefined;

/** A key of its own for this one use, derived from the secret every process of the app shares. */
function addressKey(): Buffer | null {
  const secret = env().NEXTAUTH_SECRET;
  if (!secret) return null;
  if (derived?.secret !== secret) {
    derived = { secret, key: createHmac("sha256", secret).update("switchboard client address v1").digest() };
  }
  return derived.key;
}

const signatureOf = (key: Buffer, address: string) => createHmac("sha256", key).update(address).digest("base64url");

/** The CLIENT_ADDRESS_HEADER value for `address`; null without NEXTAUTH_SECRET (nothing can verify it). */
export function signedClientAddress(address: string): string | null {
  const key = addressKey();
  return key ? `${address} ${signatureOf(key, address)}` : null;
}

/** The address in a CLIENT_ADDRESS_HEADER value, if its signature holds. */
export function verifiedClientAddress(value: string | null | undefined): string | null {
  const key = addressKey();
  const [address, signature, extra] = value?.split(" ") ?? [];
  if (!key || !address || !signature || extra !== undefined) return null;
  const expected = Buffer.from(signatureOf(key, address));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? address : null;
}

/**
 * The client address of a request Next serves (pages, server actions, route handlers,
 * next-auth). UNKNOWN_CLIENT only where no signed address was written: a handler called
 * outside a server, or a request Next took before its instrumentation ran.
 */
export function requestClientIp(headers: Headers): string {
  return verifiedClientAddress(headers.get(CLIENT_ADDRESS_HEADER)) ?? UNKNOWN_CLIENT;
}
