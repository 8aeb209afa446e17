// A TCP relay in front of the test database, so a test can make the database unreachable
// and bring it back on the same address: stop() closes the listening socket and cuts every
// relayed connection (new ones are refused, ECONNREFUSED, as a stopped server's are);
// start() listens again. Works the same for PGlite's socket server and PostgreSQL.
import net from "node:net";

export type DbProxy = { url: string; stop(): Promise<void>; start(): Promise<void>; close(): Promise<void> };

export async function startDbProxy(databaseUrl: string): Promise<DbProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  };
  const relay = () =>
    net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      track(client);
      track(upstream);
      client.pipe(upstream).pipe(client);
      client.on("error", () => upstream.destroy());
      upstream.on("error", () => client.destroy());
    });
  let server = relay();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  const url = new URL(databaseUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  return {
    url: url.toString(),
    stop,
    start: async () => {
      server = relay();
      await listen(port);
    },
    close: () => (server.listening ? stop() : Promise.resolve()),
  };
}
