// A customer's senders (docs/messaging.md "Senders"): list, connect and make
// default, the same services as the dashboard (lib/domains/onboarding/connect-sender.ts) and the operator
// CLI. Connecting and changing the default act on the whole account: global tokens only.
import { ApiError } from "@/lib/core/errors";
import { listOf } from "@/lib/core/pagination";
import { PathText } from "@/lib/core/path-params";
import { connectSender, makeDefaultSender } from "@/lib/domains/onboarding/connect-sender";
import { SenderInputError } from "@/lib/domains/senders/admin";
import * as examples from "@/lib/domains/senders/examples";
import { limitsOfSenders, type SenderLimits, senderLimits } from "@/lib/domains/senders/limits";
import { removeSender, renameSender } from "@/lib/domains/senders/manage";
import {
  PublicSender,
  SenderCreateBody,
  SenderListData,
  SenderRemovedData,
  SenderRenameBody,
} from "@/lib/domains/senders/schemas";
import { toPublicSender } from "@/lib/domains/senders/serializers";
import { findSenderByPhone, listSenders } from "@/lib/domains/senders/service";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  tag: "Senders",
  sender: "none",
  // The sender's phone number: the look-up itself tells a number from anything else.
  params: { senderId: PathText },
  paramNotFound: { senderId: "SENDER_NOT_FOUND" },
} as const;

/** The service names its fields as the dashboard form does; the API names them by their body path, as zod refusals are. */
const BODY_FIELD = {
  phone: "body.sender.phoneNumber",
  phoneNumberId: "body.sender.phoneNumberId",
  customer: "body.sender",
} as const;

function asBodyError(error: unknown): unknown {
  if (!(error instanceof SenderInputError)) return error;
  const path = BODY_FIELD[error.field];
  return new ApiError("VALIDATION_FAILED", `${path}: ${error.message}`, { fields: [{ path, message: error.message }] });
}

export const senderRoutes: AnyRoute[] = [
  route({
    ...common,
    method: "GET",
    path: "/senders",
    permission: "senders",
    example: examples.getSenders,
    summary: "List senders",
    description: "The account's senders, the default first; a number-scoped token sees its own sender only.",
    response: SenderListData,
    handler: async ({ principal }) => {
      const senders = await listSenders(principal);
      const limits = await limitsOfSenders(senders);
      const shown = senders.map((s, i) => toPublicSender(s, limits[i] as SenderLimits));
      return ok("Senders retrieved", listOf("senders", shown));
    },
  }),
  route({
    ...common,
    tokenScope: "global",
    method: "POST",
    path: "/senders",
    permission: "senders",
    example: examples.postSenders,
    summary: "Connect a sender",
    description:
      "With the simulator a simulated phone number id is assigned at once; with the provider the id is checked.",
    idempotent: "sender.create",
    body: SenderCreateBody,
    response: PublicSender,
    successStatus: 201,
    handler: async ({ principal, body }) => {
      const sender = await connectSender(principal, body.sender).catch((error: unknown) => {
        throw asBodyError(error);
      });
      return { status: 201, ...ok("Sender connected", toPublicSender(sender, await senderLimits(sender))) };
    },
  }),
  route({
    ...common,
    tokenScope: "global",
    method: "POST",
    path: "/senders/:senderId/default",
    permission: "senders",
    example: examples.postSendersBySenderIdDefault,
    summary: "Make a sender the default",
    description: "The sender is named by its phone number; the account's other senders stop being default.",
    response: PublicSender,
    errors: ["SENDER_NOT_FOUND"],
    handler: async ({ principal, params }) => {
      const requested = params.senderId;
      const known = await findSenderByPhone(principal, requested);
      if (!known) throw new ApiError("SENDER_NOT_FOUND", `Sender ${requested} is not connected to this account`);
      const sender = await makeDefaultSender(principal, known.phoneNumber);
      return ok("Default sender set", toPublicSender(sender, await senderLimits(sender)));
    },
  }),
  route({
    ...common,
    tokenScope: "global",
    method: "POST",
    path: "/senders/:senderId/rename",
    permission: "senders",
    example: examples.postSendersBySenderIdRename,
    summary: "Rename a sender",
    description: "Sets its display name; empty or null: none.",
    body: SenderRenameBody,
    response: PublicSender,
    errors: ["SENDER_NOT_FOUND"],
    handler: async ({ principal, params, body }) => {
      const known = await findSenderByPhone(principal, params.senderId);
      if (!known) throw new ApiError("SENDER_NOT_FOUND", `Sender ${params.senderId} is not connected to this account`);
      const sender = await renameSender(principal, known.phoneNumber, body.sender.displayName);
      return ok("Sender renamed", toPublicSender(sender, await senderLimits(sender)));
    },
  }),
  route({
    ...common,
    tokenScope: "global",
    method: "POST",
    path: "/senders/:senderId/remove",
    permission: "senders",
    example: examples.postSendersBySenderIdRemove,
    summary: "Remove a sender",
    description:
      "Deleted when it has no history, else deactivated: it sends no more; its conversations and records stay.",
    response: SenderRemovedData,
    errors: ["SENDER_NOT_FOUND"],
    handler: async ({ principal, params }) => {
      const known = await findSenderByPhone(principal, params.senderId);
      if (!known) throw new ApiError("SENDER_NOT_FOUND", `Sender ${params.senderId} is not connected to this account`);
      const removed = await removeSender(principal, known.phoneNumber);
      const sender = toPublicSender(removed.sender, await senderLimits(removed.sender));
      return ok("Sender removed", { outcome: removed.outcome, sender });
    },
  }),
];
