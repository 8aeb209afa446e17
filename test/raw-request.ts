// One HTTP/1.1 request written on a bare socket, the whole body sent before anything is read
// (as curl, fetch and Playwright do): what comes back and how the connection ended, "end"
// (the server closed it cleanly) or the error the socket saw (ECONNRESET: a reset).
import net from "node:net";

export type RawOutcome = { head: string; body: string; ended: "end" | string };

export function rawRequest(port: number, head: string, body: Buffer | string): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    let ended: RawOutcome["ended"] | undefined;
    socket.on("data", (d: Buffer) => {
      received += d.toString("latin1");
    });
    socket.on("end", () => {
      ended ??= "end";
    });
    socket.on("error", (error: NodeJS.ErrnoException) => {
      ended ??= error.code ?? error.message;
    });
    socket.on("close", () => {
      const at = received.indexOf("\r\n\r\n");
      resolve({
        head: at < 0 ? received : received.slice(0, at),
        body: at < 0 ? "" : received.slice(at + 4),
        ended: ended ?? "end",
      });
    });
    socket.write(head);
    socket.end(body);
  });
}
