// simulate:inbound (docs/operator-cli.md).
import { simulateInbound } from "@/lib/ingest/simulate-inbound";
import { defineCommand } from "./command";
import { SimulateInboundArgs } from "./schemas";

export const simulateInboundCommand = defineCommand({
  options: { sender: { type: "string" }, from: { type: "string" }, text: { type: "string" }, name: { type: "string" } },
  schema: SimulateInboundArgs,
  run: async (input) => {
    const r = await simulateInbound(input);
    return {
      json: { ...r },
      text: `${r.from} wrote to ${r.senderId} (${r.messageId})${r.conversationUid ? `: conversation ${r.conversationUid}` : ""}`,
    };
  },
});
