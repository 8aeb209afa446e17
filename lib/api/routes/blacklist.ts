// Adding and removing blacklist numbers (docs/conversations.md "Opt-out and the
// blacklist"); the listing is GET /blacklist in contacts.ts. Sender-scoped as webhooks:
// senderId in the body, or the number-scoped token's sender.
import { addBlacklistEntry, removeBlacklistEntry } from "@/lib/domains/contacts/blacklist";
import * as examples from "@/lib/domains/contacts/examples";
import {
  BlacklistAddBody,
  BlacklistRemoveBody,
  BlacklistRemoveData,
  PublicBlacklistEntry,
} from "@/lib/domains/contacts/schemas";
import { toPublicBlacklistEntry } from "@/lib/domains/contacts/serializers";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  feature: "contactBooks",
  tag: "Contact books",
  tokenScope: "any",
  sender: "resolve",
  method: "POST",
} as const;

export const blacklistRoutes: AnyRoute[] = [
  route({
    ...common,
    path: "/blacklist",
    permission: "contacts.write",
    example: examples.postBlacklist,
    idempotent: "blacklist.add",
    summary: "Add a number to the blacklist",
    description:
      "Adds a number to the resolved sender's blacklist; adding a number already there succeeds (idempotent).",
    body: BlacklistAddBody,
    response: PublicBlacklistEntry,
    handler: async ({ principal, sender, body }) => {
      const entry = await addBlacklistEntry(principal, sender, body);
      return ok("Number blacklisted", toPublicBlacklistEntry(entry));
    },
  }),
  route({
    ...common,
    path: "/blacklist/remove",
    permission: "contacts.write",
    example: examples.postBlacklistRemove,
    summary: "Remove a number from the blacklist",
    description: "Removes a number from the resolved sender's blacklist.",
    body: BlacklistRemoveBody,
    response: BlacklistRemoveData,
    handler: async ({ principal, sender, body }) => {
      const removed = await removeBlacklistEntry(principal, sender, body.phoneNumber);
      return ok(removed ? "Number removed from the blacklist" : "The number was not on the blacklist", {
        senderId: sender.phoneNumber,
        phoneNumber: body.phoneNumber,
        removed,
      });
    },
  }),
];
