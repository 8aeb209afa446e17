// SLA policies (docs/reports.md "SLA policies"): list in the account's order, create, read,
// update (POST, at least one field; position moves it), delete. Account-wide: a global token
// only (a number-scoped one answers TOKEN_SCOPE_NOT_ALLOWED).
import { listOf } from "@/lib/core/pagination";
import { senderPhones } from "@/lib/domains/automation/service";
import * as examples from "@/lib/domains/sla/examples";
import {
  SlaPolicyCreateBody,
  SlaPolicyDeletedPublic,
  SlaPolicyListPublic,
  SlaPolicyPublic,
  SlaPolicyUpdateBody,
  SlaUid,
} from "@/lib/domains/sla/schemas";
import { toPublicPolicy } from "@/lib/domains/sla/serializers";
import { createPolicy, deletePolicy, getPolicy, listPolicies, updatePolicy } from "@/lib/domains/sla/service";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  tag: "SLA policies",
  tokenScope: "global",
  permission: "automations",
} as const;
const byUid = {
  ...common,
  params: { slaUid: SlaUid },
  paramNotFound: { slaUid: "SLA_POLICY_NOT_FOUND" },
  errors: ["SLA_POLICY_NOT_FOUND"],
} as const;

export const slaPolicyRoutes: AnyRoute[] = [
  route({
    ...common,
    method: "GET",
    path: "/sla-policies",
    example: examples.getSlaPolicies,
    summary: "List SLA policies",
    description: "The account's policies in its order: a conversation gets the first that applies.",
    response: SlaPolicyListPublic,
    handler: async ({ principal }) => {
      const policies = await listPolicies(principal);
      const phones = await senderPhones(principal.customerId);
      return ok(
        "SLA policies retrieved",
        listOf(
          "policies",
          policies.map((x) => toPublicPolicy(x, phones)),
        ),
      );
    },
  }),
  route({
    ...common,
    method: "POST",
    path: "/sla-policies",
    example: examples.postSlaPolicies,
    idempotent: "sla_policy.create",
    summary: "Create an SLA policy",
    description:
      "Targets in minutes (at least one; null: none), businessHoursOnly, and applies {senderIds, labels} (empty: any; each label one of the account's); a name no other policy of the account has, whatever the case. It goes last in the order. It reaches the open conversations it applies to within seconds, in the background, due from their waits' starts.",
    body: SlaPolicyCreateBody,
    response: SlaPolicyPublic,
    successStatus: 201,
    handler: async ({ principal, body }) => {
      const policy = await createPolicy(principal, body.policy);
      return {
        status: 201,
        ...ok("SLA policy created", toPublicPolicy(policy, await senderPhones(principal.customerId))),
      };
    },
  }),
  route({
    ...byUid,
    method: "GET",
    path: "/sla-policies/:slaUid",
    example: examples.getSlaPoliciesBySlaUid,
    summary: "Read an SLA policy",
    response: SlaPolicyPublic,
    handler: async ({ principal, params }) =>
      ok(
        "SLA policy retrieved",
        toPublicPolicy(await getPolicy(principal, params.slaUid), await senderPhones(principal.customerId)),
      ),
  }),
  route({
    ...byUid,
    method: "POST",
    path: "/sla-policies/:slaUid",
    example: examples.postSlaPoliciesBySlaUid,
    summary: "Update an SLA policy",
    description:
      "At least one field; position moves it in the account's order (from 0). Each label in applies is one of the account's, and a new name one no other policy of the account has, whatever the case. A change of the targets, businessHoursOnly, applies or position reaches the open conversations' due times within seconds, in the background; replies and closes before the change are not judged again, and recorded breaches stay.",
    body: SlaPolicyUpdateBody,
    response: SlaPolicyPublic,
    handler: async ({ principal, params, body }) =>
      ok(
        "SLA policy updated",
        toPublicPolicy(
          await updatePolicy(principal, params.slaUid, body.policy),
          await senderPhones(principal.customerId),
        ),
      ),
  }),
  route({
    ...byUid,
    method: "DELETE",
    path: "/sla-policies/:slaUid",
    example: examples.deleteSlaPoliciesBySlaUid,
    summary: "Delete an SLA policy",
    description:
      "Its conversations keep the breaches recorded and lose its due times at once; within seconds, in the background, each open one gets the next policy that applies, if any.",
    response: SlaPolicyDeletedPublic,
    handler: async ({ principal, params }) => {
      await deletePolicy(principal, params.slaUid);
      return ok("SLA policy deleted", { slaUid: params.slaUid, deleted: true as const });
    },
  }),
];
