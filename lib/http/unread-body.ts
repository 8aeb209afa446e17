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
export const UNREAD_BODY_DRAIN_MS = 30_000;

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
  let dropped = 0;
  const giveUp = () => {
    stop();
    res.destroy();
  };
  const count = (piece: Buffer) => {
    dropped += piece.length;
    if (dropped > UNREAD_BODY_DRAIN_BYTES) giveUp();
  };
  const stalled = setTimeout(giveUp, UNREAD_BODY_DRAIN_MS);
  const stop = () => {
    clearTimeout(stalled);
    req.off("data", count);
  };
  req.on("data", count);
  req.resume();
  req.once("end", () => {
    stop();
    res.end();
  });
  req.once("error", giveUp);
}
