"use server";
import { z } from "zod";
import { defineAction } from "@/lib/dashboard/define-action";
import { SenderConnectFields } from "@/lib/domains/senders/schemas";
import { connectSender, makeDefaultSender } from "@/lib/domains/senders/self-serve";

// Both change the header's sender list: the whole layout is stale.
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
