// Who may be told what (docs/inbox.md "Live updates"): the same rules as the pages the
// notices point to. A member needs the kind's permission (KIND_PERMISSION), and a member
// limited to some senders (an agent) is told only about those senders.

import { can } from "@/lib/domains/auth/access";
import { allowedSenderIds, type Principal } from "@/lib/domains/auth/principal";
import { KIND_PERMISSION, type LiveEvent } from "./events";

export function mayReceive(p: Principal, event: LiveEvent): boolean {
  if (!can(p, KIND_PERMISSION[event.kind])) return false;
  const senders = allowedSenderIds(p);
  return senders === null || senders.includes(event.senderId);
}
