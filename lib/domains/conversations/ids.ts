import { randomBytes } from "node:crypto";

export const newConversationUid = () => `conv_${randomBytes(12).toString("hex")}`;

/** `count` uids as newConversationUid makes them, from one draw of randomness (a batch of sends). */
export function newConversationUids(count: number): string[] {
  const hex = randomBytes(12 * count).toString("hex");
  return Array.from({ length: count }, (_, i) => `conv_${hex.slice(i * 24, i * 24 + 24)}`);
}

let seq = 0;
/**
 * Thread entry uids sort by creation within a process (time, then a counter): the thread is
 * ordered by (createdAt, id), and provider timestamps have one-second resolution, so
 * messages of the same second keep their arrival order.
 */
export function newThreadMessageUid(): string {
  seq = (seq + 1) % 0x100000;
  const time = Date.now().toString(16).padStart(12, "0");
  return `cmsg_${time}${seq.toString(16).padStart(5, "0")}${randomBytes(6).toString("hex")}`;
}
