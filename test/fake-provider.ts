// A stand-in for the provider's Graph-style API on 127.0.0.1 (random port), for processes
// started with PROVIDER_MODE=http and PROVIDER_BASE_URL pointing here: it accepts every
// POST /{version}/{phoneNumberId}/messages with a fresh wamid and records what was sent,
// so a test counts the messages that really left Switchboard.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ProviderSend = {
  phoneNumberId: string;
  wamid: string;
  // biome-ignore lint/suspicious/noExplicitAny: the provider payload as posted
  payload: any;
};

export type FakeProvider = { baseUrl: string; sends: ProviderSend[]; close: () => Promise<void> };

export async function startFakeProvider(): Promise<FakeProvider> {
  const sends: ProviderSend[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const match = /^\/v[\d.]+\/([^/?]+)\/messages$/.exec(req.url ?? "");
      if (req.method !== "POST" || !match?.[1]) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "Unknown path", code: 100 } }));
        return;
      }
      const payload = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const wamid = `wamid.fake.${randomBytes(12).toString("hex")}`;
      sends.push({ phoneNumberId: match[1], wamid, payload });
      const waId = String(payload.to ?? "").replace(/\D/g, "");
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          messaging_product: "whatsapp",
          contacts: [{ input: payload.to, wa_id: waId }],
          messages: [{ id: wamid }],
        }),
      );
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    sends,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
