// The OpenAPI examples of the SLA policy routes (docs/openapi.md "Adding a route"): one sample
// policy through the serializer the routes answer with.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import type { SlaPolicy } from "@/lib/generated/prisma/client";
import { toPublicPolicy } from "./serializers";

const policy = {
  name: "Priority customers",
  firstResponseMinutes: 15,
  nextResponseMinutes: 60,
  resolutionMinutes: 480,
  businessHoursOnly: true,
  applies: { senderIds: [sampleSender.phoneNumber], labels: ["vip"] },
};

const policyRow: SlaPolicy = {
  id: "sla_mwtr9dy580d00daf32ad1db4ff19",
  customerId: SAMPLE_CUSTOMER_ID,
  name: policy.name,
  position: 0,
  firstResponseMinutes: policy.firstResponseMinutes,
  nextResponseMinutes: policy.nextResponseMinutes,
  resolutionMinutes: policy.resolutionMinutes,
  businessHoursOnly: true,
  senderIds: [sampleSender.id],
  labels: ["vip"],
  termsChangedAt: null,
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
};
const phones = new Map([[sampleSender.id, sampleSender.phoneNumber]]);
const publicPolicy = toPublicPolicy(policyRow, phones);
const params = { slaUid: policyRow.id };

export const getSlaPolicies = {
  message: "SLA policies retrieved",
  response: listExample("policies", [publicPolicy], null),
};
export const postSlaPolicies = { request: { policy }, message: "SLA policy created", response: publicPolicy };
export const getSlaPoliciesBySlaUid = { params, message: "SLA policy retrieved", response: publicPolicy };
export const postSlaPoliciesBySlaUid = {
  params,
  request: { policy: { firstResponseMinutes: 30 } },
  message: "SLA policy updated",
  response: toPublicPolicy({ ...policyRow, firstResponseMinutes: 30, updatedAt: exampleTime(2) }, phones),
};
export const deleteSlaPoliciesBySlaUid = {
  params,
  message: "SLA policy deleted",
  response: { slaUid: policyRow.id, deleted: true as const },
};
