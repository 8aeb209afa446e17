"use server";
import { z } from "zod";
import { defineAction } from "@/lib/dashboard/define-action";
import { connectSender, makeDefaultSender } from "@/lib/domains/onboarding/connect-sender";
import { removeSender, renameSender } from "@/lib/domains/senders/manage";
import { SenderConnectFields, SenderRenameFields } from "@/lib/domains/senders/schemas";

// Each changes the header's sender list: the whole layout is stale.
const LAYOUT = { path: "/", type: "layout" } as const;

export const addSenderAction = defineAction({
  permission: "senders",
  schema: SenderConnectFields,
  run: async ({ principal, input }) => ({ phoneNumber: (await connectSender(principal, input)).phoneNumber }),
  revalidate: LAYOUT,
});

export const makeDefaultAction = defineAction({
  permission: "senders",
  schema: z.object({ phoneNumber: z.string() }),
  run: async ({ principal, input }) => {
    await makeDefaultSender(principal, input.phoneNumber);
  },
  revalidate: LAYOUT,
});

export const renameSenderAction = defineAction({
  permission: "senders",
  schema: SenderRenameFields.extend({ phoneNumber: z.string() }),
  run: async ({ principal, input }) => {
    await renameSender(principal, input.phoneNumber, input.displayName);
  },
  revalidate: LAYOUT,
});

/** Deleted without history, else deactivated (lib/domains/senders/manage.ts); the toast says which. */
export const removeSenderAction = defineAction({
  permission: "senders",
  schema: z.object({ phoneNumber: z.string() }),
  run: async ({ principal, input }) => ({ outcome: (await removeSender(principal, input.phoneNumber)).outcome }),
  revalidate: LAYOUT,
});
