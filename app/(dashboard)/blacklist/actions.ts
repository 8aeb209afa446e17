"use server";
// The blacklist page's add and remove: the same zod bodies and services as POST /blacklist
// and POST /blacklist/remove, on the sender the page shows.
import { ApiError } from "@/lib/core/errors";
import { defineAction } from "@/lib/dashboard/define-action";
import type { Principal } from "@/lib/domains/auth/principal";
import { addBlacklistEntry, removeBlacklistEntry } from "@/lib/domains/contacts/blacklist";
import { BlacklistAddBody, BlacklistRemoveBody } from "@/lib/domains/contacts/schemas";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";

async function senderOf(p: Principal, phone: string | undefined) {
  const sender = await pageSender(p, phone);
  if (!sender) throw new ApiError("SENDER_NOT_FOUND", "Pick a sender first");
  return sender;
}

export const addBlacklistAction = defineAction({
  permission: "contacts.write",
  schema: BlacklistAddBody,
  run: async ({ principal, input }) => {
    const entry = await addBlacklistEntry(principal, await senderOf(principal, input.senderId), {
      phoneNumber: input.phoneNumber,
      reason: input.reason || undefined,
    });
    return { phoneNumber: entry.phoneNumber };
  },
  revalidate: "/blacklist",
});

export const removeBlacklistAction = defineAction({
  permission: "contacts.write",
  schema: BlacklistRemoveBody,
  run: async ({ principal, input }) => ({
    removed: await removeBlacklistEntry(principal, await senderOf(principal, input.senderId), input.phoneNumber),
  }),
  revalidate: "/blacklist",
});
