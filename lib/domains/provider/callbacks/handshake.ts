// The provider's subscription handshake: GET ?hub.mode=subscribe&hub.challenge=X&hub.verify_token=T.
import { timingSafeEqual } from "node:crypto";
import { env } from "@/lib/core/env";

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function handleHandshake(url: URL): Response {
  const mode = url.searchParams.get("hub.mode");
  const challenge = url.searchParams.get("hub.challenge");
  const token = url.searchParams.get("hub.verify_token") ?? "";
  if (mode === "subscribe" && challenge !== null && sameText(token, env().PROVIDER_VERIFY_TOKEN)) {
    return new Response(challenge, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  return new Response("Forbidden", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
