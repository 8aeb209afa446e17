// An answer given before the request's body was read whole (a 413 over the limit, a 401
// before the body is looked at): the connection closes after it, but only once the client
// has sent its body. A server that closes a socket with the client's bytes still unread makes
// the kernel reset it, and a client still sending (curl, fetch, Playwright send the whole
// body before reading) then sees ECONNRESET instead of the answer. What arrives is dropped
// as it comes (no memory held), up to UNREAD_BODY_DRAIN_BYTES and UNREAD_BODY_DRAIN_MS; a body
// declared larger, or one that goes on past them (a flood), is not waited for.
import type http from "node:http";

/** At most this much of an unread body is read and dropped before the connection closes. */
export const UNREAD_BODY_DRAIN_BYTES = 64 * 1024 * 1024;
/** ... and for at most this long: a client that stalls mid-body has its connection closed. */
const UNREAD_BODY_DRAIN_MS = 30_000;

/** Whether the request's body is still arriving, so the answer must say `Connection: close`. */
export const bodyStillArriving = (req: http.IncomingMessage): boolean => !req.complete;

/**
 * Ends `res` (status and headers sent with `Connection: close`) with its last `chunk`, once
 * the request's body is in, as the module's comment says. The rest of the body is dropped.
 */
export function endAfterBody(req: http.IncomingMessage, res: http.ServerResponse, chunk?: string | Buffer): void {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (req.complete || declared > UNREAD_BODY_DRAIN_BYTES) {
    req.resume();
    res.end(chunk);
    return;
  }
  if (chunk !== undefined) res.write(chunk);
  const giveUp = () => res.destroy();
  dropRestOfBody(req, UNREAD_BODY_DRAIN_BYTES, { end: () => res.end(), over: giveUp, gone: giveUp });
}

/**
 * Reads and drops the rest of `req`'s body as it comes (no memory held), then says once how it
 * went: `end` (all of it in), `over` (more than `maxBytes` of it), or `gone` (the client stalled
 * past UNREAD_BODY_DRAIN_MS, or its connection failed). After `over` the rest still flows and is
 * dropped unseen.
 */
export function dropRestOfBody(
  req: http.IncomingMessage,
  maxBytes: number,
  outcome: { end: () => void; over: () => void; gone: () => void },
): void {
  let dropped = 0;
  const settle = (then: () => void) => {
    clearTimeout(stalled);
    req.off("data", count);
    req.off("end", ended);
    req.off("error", failed);
    then();
  };
  const count = (piece: Buffer) => {
    dropped += piece.length;
    if (dropped > maxBytes) settle(outcome.over);
  };
  const ended = () => settle(outcome.end);
  const failed = () => settle(outcome.gone);
  const stalled = setTimeout(failed, UNREAD_BODY_DRAIN_MS);
  req.on("data", count);
  req.once("end", ended);
  req.once("error", failed);
  req.resume();
}
