// The OpenAPI examples of the label routes (docs/openapi.md "Adding a route"): one sample
// label through the serializer the routes answer with.
import { exampleTime, listExample } from "@/lib/core/examples";
import { toPublicLabel } from "./serializers";
import type { LabelRow } from "./service";

const row: LabelRow = {
  id: "lbl_8d0f3a9c41b27e55d6a1",
  name: "VIP",
  color: "purple",
  description: "Customers with a yearly plan",
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
};
const label = toPublicLabel(row);
const params = { labelUid: row.id };
const conversationUid = "conv_55fef5a63b9d9beba6aa7cf7";
const phoneNumber = "+18246194658";

export const getLabels = { message: "Labels retrieved", response: listExample("labels", [label], null) };
export const postLabels = {
  request: { label: { name: "VIP", color: "purple", description: "Customers with a yearly plan" } } as const,
  message: "Label created",
  response: label,
};
export const getLabelsByLabelUid = { params, message: "Label retrieved", response: label };
export const postLabelsByLabelUid = {
  params,
  request: { label: { name: "Gold", color: "yellow" } } as const,
  message: "Label updated",
  response: toPublicLabel({ ...row, name: "Gold", color: "yellow", updatedAt: exampleTime(60) }),
};
export const deleteLabelsByLabelUid = {
  params,
  message: "Label deleted",
  response: { labelUid: row.id, deleted: true as const },
};
export const postConversationsByConversationUidLabels = {
  params: { conversationUid },
  request: { add: ["VIP"], remove: ["new"] },
  message: "Conversation labels changed",
  response: { conversationUid, labels: ["refund", "VIP"], added: ["VIP"], removed: ["new"] },
};
export const getContactsByPhoneNumberLabels = {
  params: { phoneNumber },
  message: "Contact labels retrieved",
  response: { phoneNumber, labels: ["VIP"] },
};
export const postContactsByPhoneNumberLabels = {
  params: { phoneNumber },
  request: { add: ["VIP"] },
  message: "Contact labels changed",
  response: { phoneNumber, labels: ["VIP"], added: ["VIP"], removed: [] },
};
