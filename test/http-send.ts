// A raw HTTP request to a local server, for the node:http servers' tests.
import http from "node:http";

export type Reply = { status: number; headers: http.IncomingHttpHeaders; text: string };

/**
 * `chunks` are written one by one (chunked transfer encoding when there are several);
 * `from`: the local address to send from (any of 127.0.0.0/8 reaches a loopback server).
 */
export function sendHttp(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  chunks: string[] = [],
  from?: string,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers, localAddress: from }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => {
        text += d;
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    const write = (i: number) => {
      const chunk = chunks[i];
      if (chunk === undefined) {
        req.end();
        return;
      }
      req.write(chunk, () => setTimeout(() => write(i + 1), 5));
    };
    write(0);
  });
}
