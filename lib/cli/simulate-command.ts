// simulate:inbound (docs/operator-cli.md).
import { simulateInbound } from "@/lib/ingest/simulate-inbound";
import { defineCommand } from "./command";
import { SimulateInboundArgs } from "./schemas";

export const simulateInboundCommand = defineCommand({
  options: {
    sender: { type: "string" },
    from: { type: "string" },
    text: { type: "string" },
    media: { type: "string" },
    caption: { type: "string" },
    voice: { type: "boolean" },
    name: { type: "string" },
    "button-id": { type: "string" },
    "button-title": { type: "string" },
    "list-row-id": { type: "string" },
    "list-row-title": { type: "string" },
    "list-row-description": { type: "string" },
    reaction: { type: "string" },
    context: { type: "string" },
  },
  schema: SimulateInboundArgs,
  run: async (input) => {
    const r = await simulateInbound(input);
    return {
      json: { ...r },
      text:
        `${r.from} ${r.media ? `sent a ${input.voice ? "voice note" : r.media.kind}` : input.reaction !== undefined ? "reacted" : input.buttonId ? "tapped a button" : input.listRowId ? "picked a list row" : "wrote"} to ${r.senderId} (${r.messageId})` +
        `${r.conversationUid ? `: conversation ${r.conversationUid}` : ""}` +
        `${r.media ? `; media ${r.media.mediaId} ${r.media.status}${r.media.unavailableReason ? ` (${r.media.unavailableReason})` : ""}` : ""}`,
    };
  },
});
