// Labels (docs/automation.md "Labels"): the account's labels (list, create, read, update by
// POST, delete; a global token only), and the labels a conversation (sender-scoped as the
// conversation routes) or a contact (a phone number of the account) carries.
import { listOf } from "@/lib/core/pagination";
import { changeConversationLabelsWithRules } from "@/lib/domains/automation/labels";
import { ConversationUid } from "@/lib/domains/conversations/schemas";
import { changeContactLabels, readContactLabels } from "@/lib/domains/labels/apply";
import * as examples from "@/lib/domains/labels/examples";
import {
  ContactLabelsPublic,
  ContactLabelsReadPublic,
  ContactPhoneParam,
  ConversationLabelsBody,
  ConversationLabelsPublic,
  LabelChange,
  LabelCreateBody,
  LabelDeletedPublic,
  LabelListPublic,
  LabelPublic,
  LabelUid,
  LabelUpdateBody,
} from "@/lib/domains/labels/schemas";
import { toPublicLabel } from "@/lib/domains/labels/serializers";
import { createLabel, deleteLabel, getLabel, listLabels, updateLabel } from "@/lib/domains/labels/service";
import { type AnyRoute, ok, route } from "../route-definition";

const common = { versions: ["v2", "v3"], limit: "global", tag: "Labels" } as const;
const account = { ...common, tokenScope: "global", permission: "inbox" } as const;
const byUid = {
  ...account,
  params: { labelUid: LabelUid },
  paramNotFound: { labelUid: "LABEL_NOT_FOUND" },
  errors: ["LABEL_NOT_FOUND"],
} as const;
const contact = {
  ...common,
  tokenScope: "global",
  params: { phoneNumber: ContactPhoneParam },
  paramNotFound: { phoneNumber: "CONTACT_NOT_FOUND" },
} as const;

export const labelRoutes: AnyRoute[] = [
  route({
    ...account,
    method: "GET",
    path: "/labels",
    example: examples.getLabels,
    summary: "List labels",
    description: "The account's labels, sorted by name.",
    response: LabelListPublic,
    handler: async ({ principal }) =>
      ok("Labels retrieved", listOf("labels", (await listLabels(principal)).map(toPublicLabel))),
  }),
  route({
    ...account,
    method: "POST",
    path: "/labels",
    example: examples.postLabels,
    idempotent: "label.create",
    summary: "Create a label",
    description:
      "Body {label: {name, color?, description?}}; a name the account has already, whatever the case, is LABEL_EXISTS.",
    body: LabelCreateBody,
    response: LabelPublic,
    successStatus: 201,
    errors: ["LABEL_EXISTS"],
    handler: async ({ principal, body }) => ({
      status: 201,
      ...ok("Label created", toPublicLabel(await createLabel(principal, body.label))),
    }),
  }),
  route({
    ...byUid,
    method: "GET",
    path: "/labels/:labelUid",
    example: examples.getLabelsByLabelUid,
    summary: "Read a label",
    response: LabelPublic,
    handler: async ({ principal, params }) =>
      ok("Label retrieved", toPublicLabel(await getLabel(principal, params.labelUid))),
  }),
  route({
    ...byUid,
    method: "POST",
    path: "/labels/:labelUid",
    example: examples.postLabelsByLabelUid,
    summary: "Update a label",
    description: "At least one of name, color, description; a rename keeps the label on what carries it.",
    body: LabelUpdateBody,
    response: LabelPublic,
    errors: ["LABEL_NOT_FOUND", "LABEL_EXISTS"],
    handler: async ({ principal, params, body }) =>
      ok("Label updated", toPublicLabel(await updateLabel(principal, params.labelUid, body.label))),
  }),
  route({
    ...byUid,
    method: "DELETE",
    path: "/labels/:labelUid",
    example: examples.deleteLabelsByLabelUid,
    summary: "Delete a label",
    description: "The label comes off every conversation and contact that carries it.",
    response: LabelDeletedPublic,
    handler: async ({ principal, params }) => {
      await deleteLabel(principal, params.labelUid);
      return ok("Label deleted", { labelUid: params.labelUid, deleted: true as const });
    },
  }),
  route({
    ...common,
    method: "POST",
    path: "/conversations/:conversationUid/labels",
    permission: "inbox",
    // The thread's label picker sends it too, as the signed-in member.
    session: true,
    feature: "messaging",
    tokenScope: "any",
    sender: "resolve",
    // A global token without senderId reaches every sender's conversations, as the conversation routes.
    senderOptions: { useDefault: false, requireSetup: false },
    params: { conversationUid: ConversationUid },
    paramNotFound: { conversationUid: "CONVERSATION_NOT_FOUND" },
    example: examples.postConversationsByConversationUidLabels,
    summary: "Change a conversation's labels",
    description:
      "Body {add: [name...], remove: [name...]}, names matched whatever the case; unknown names are LABEL_NOT_FOUND naming them. Emits conversation.labels_changed when something changed.",
    body: ConversationLabelsBody,
    response: ConversationLabelsPublic,
    errors: ["CONVERSATION_NOT_FOUND", "LABEL_NOT_FOUND"],
    handler: async ({ principal, sender, params, body }) => {
      const { senderId: _s, ...change } = body;
      return ok(
        "Conversation labels changed",
        await changeConversationLabelsWithRules(principal, sender?.id, params.conversationUid, change),
      );
    },
  }),
  route({
    ...contact,
    method: "GET",
    path: "/contacts/:phoneNumber/labels",
    permission: "contacts.read",
    example: examples.getContactsByPhoneNumberLabels,
    summary: "Read a contact's labels",
    description:
      "The labels of a phone number of the account, across its contact books and conversations; a number the account has never seen is CONTACT_NOT_FOUND.",
    response: ContactLabelsReadPublic,
    errors: ["CONTACT_NOT_FOUND"],
    handler: async ({ principal, params }) =>
      ok("Contact labels retrieved", {
        phoneNumber: params.phoneNumber,
        labels: await readContactLabels(principal, params.phoneNumber),
      }),
  }),
  route({
    ...contact,
    method: "POST",
    path: "/contacts/:phoneNumber/labels",
    permission: "contacts.write",
    example: examples.postContactsByPhoneNumberLabels,
    summary: "Change a contact's labels",
    description:
      "Body {add: [name...], remove: [name...]}; the labels hold for the number across the account's books and conversations. A number never seen is CONTACT_NOT_FOUND, unknown names LABEL_NOT_FOUND.",
    body: LabelChange,
    response: ContactLabelsPublic,
    errors: ["CONTACT_NOT_FOUND", "LABEL_NOT_FOUND"],
    handler: async ({ principal, params, body }) =>
      ok("Contact labels changed", await changeContactLabels(principal, params.phoneNumber, body)),
  }),
];
