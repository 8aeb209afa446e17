import { randomBytes } from "node:crypto";

export const newConversationUid = () => `conv_${randomBytes(12).toString("hex")}`;
export const newThreadMessageUid = () => `cmsg_${randomBytes(12).toString("hex")}`;
