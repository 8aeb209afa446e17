// Where the client address is resolved from a socket and signed for Next (the rule and the
// header: lib/core/client-ip.ts): the front server for what it passes on, and the Next
// process itself for every request it receives without the front server's signed address.
import diagnostics from "node:diagnostics_channel";
import type http from "node:http";
import { CLIENT_ADDRESS_HEADER, clientIpFrom, signedClientAddress, verifiedClientAddress } from "@/lib/core/client-ip";

/** The signed address of a request received on this process's socket (null without NEXTAUTH_SECRET). */
export function signedAddressOf(req: http.IncomingMessage): string | null {
  const claimed = req.headers["x-forwarded-for"];
  const forwardedFor = Array.isArray(claimed) ? claimed.join(", ") : claimed;
  return signedClientAddress(clientIpFrom(forwardedFor, req.socket.remoteAddress));
}

/**
 * Gives `request` its socket's signed address, unless it carries one the front server
 * signed (its socket is then the front server's loopback connection). Any other copy is
 * replaced, or removed when nothing can be signed.
 */
export function stampClientAddress(request: http.IncomingMessage): void {
  const claimed = request.headers[CLIENT_ADDRESS_HEADER];
  if (typeof claimed === "string" && verifiedClientAddress(claimed)) return;
  const signed = signedAddressOf(request);
  if (signed) request.headers[CLIENT_ADDRESS_HEADER] = signed;
  else delete request.headers[CLIENT_ADDRESS_HEADER];
}

const STAMPING = Symbol.for("switchboard.clientAddressStamping");

/**
 * Every request an http server of this process receives is stamped before its handlers run:
 * Node publishes `http.server.request.start` on its diagnostics channel just before the
 * server's "request" event. Called once, from instrumentation.ts, in the Next process.
 */
export function stampClientAddresses(): void {
  const flags = globalThis as { [STAMPING]?: true };
  if (flags[STAMPING]) return;
  flags[STAMPING] = true;
  diagnostics.subscribe("http.server.request.start", (message) => {
    stampClientAddress((message as { request: http.IncomingMessage }).request);
  });
}
