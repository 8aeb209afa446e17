import { randomBytes } from "node:crypto";

export const newConversationUid = () => `conv_${randomBytes(12).toString("hex")}`;

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
