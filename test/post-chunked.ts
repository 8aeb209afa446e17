// A chunked POST of `bytes` bytes written as fast as the server takes them, stopped as soon
// as the server answers (or cuts the connection): what a client flooding a body limit sees.
import http from "node:http";

/** `complete`: the answer ended cleanly (not cut after its headers). */
export type ChunkedOutcome = { status: number | "cut"; text: string; sentBytes: number; complete: boolean };

export function postChunked(
  port: number,
  path: string,
  headers: Record<string, string>,
  bytes: number,
): Promise<ChunkedOutcome> {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  return new Promise((resolve) => {
    let sent = 0;
    let done = false;
    const finish = (status: ChunkedOutcome["status"], text = "", complete = false) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve({ status, text, sentBytes: sent, complete });
    };
    const req = http.request({ host: "127.0.0.1", port, method: "POST", path, headers });
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        text += d;
      });
      res.on("end", () => finish(res.statusCode ?? 0, text, res.complete));
      res.on("error", () => finish(res.statusCode ?? 0, text));
    });
    req.on("error", () => finish("cut"));
    const pump = () => {
      while (!done && sent < bytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
        sent += piece.length;
        if (!req.write(piece)) {
          req.once("drain", pump);
          return;
        }
      }
      if (!done) req.end();
    };
    pump();
  });
}
