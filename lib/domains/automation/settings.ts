// The business hours setting and its away reply (docs/automation.md "Business hours"). The
// away reply is a built-in rule (builtIn "away": message.inbound, outside business hours,
// send_text), so it runs exactly like any rule: once per closed period of a conversation
// (its run key names the period), inside the window, after a chatbot that owns the
// conversation. Members need the automations permission; every change is audited. A change of
// the hours moves the SLA due times of the policies that count business hours, as an edit of
// their terms does (lib/domains/sla/policy-change.ts; docs/reports.md "When a policy changes").
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { newId } from "@/lib/db/sql";
import { auditContext } from "@/lib/domains/audit/actor";
import { recordAudit } from "@/lib/domains/audit/record";
import { assertPermission } from "@/lib/domains/auth/access";
import type { Principal } from "@/lib/domains/auth/principal";
import { assertDatabaseKnowsZone } from "@/lib/domains/business-hours/database-zone";
import type { BusinessHoursBody, BusinessHoursPublic } from "@/lib/domains/business-hours/schemas";
import { businessHoursOf, parseBusinessHours } from "@/lib/domains/business-hours/service";
import { scheduleHoursChange } from "@/lib/domains/sla/policy-change";
import { Prisma } from "@/lib/generated/prisma/client";
import type { Action, Condition } from "./schemas";
import { configOf } from "./serializers";

const AWAY = "away";

function guard(p: Principal): void {
  if (p.member) assertPermission(p, "automations");
  if (p.scopedSenderId) throw new ApiError("TOKEN_SCOPE_NOT_ALLOWED", "Business hours need a global token");
}

export async function getBusinessHoursSetting(p: Principal): Promise<BusinessHoursPublic> {
  guard(p);
  const [hours, away] = await Promise.all([
    businessHoursOf(p.customerId),
    db.automationRule.findFirst({ where: { customerId: p.customerId, builtIn: AWAY } }),
  ]);
  const action = away ? configOf(away).actions[0] : undefined;
  return {
    businessHours: hours,
    awayReply: { enabled: away?.enabled ?? false, text: action?.type === "send_text" ? action.text : null },
  };
}

export async function setBusinessHoursSetting(p: Principal, body: BusinessHoursBody): Promise<BusinessHoursPublic> {
  guard(p);
  if (body.businessHours) await assertDatabaseKnowsZone(body.businessHours.timezone, "body.businessHours.timezone");
  await db.$transaction(async (tx) => {
    if (body.businessHours !== undefined) {
      // The account's row locked first, as an SLA policy change locks it: the hours read here are
      // the ones this change replaces.
      const [row] = await tx.$queryRaw<{ businessHours: unknown }[]>`
        SELECT "businessHours" FROM "Customer" WHERE "id" = ${p.customerId} FOR UPDATE`;
      const before = parseBusinessHours(row?.businessHours);
      const after = parseBusinessHours(body.businessHours);
      if (JSON.stringify(before) !== JSON.stringify(after)) {
        await scheduleHoursChange(tx, p.customerId, before, new Date());
      }
      await tx.customer.update({
        where: { id: p.customerId },
        data: {
          businessHours: body.businessHours === null ? Prisma.DbNull : (body.businessHours as Prisma.InputJsonValue),
        },
      });
    }
    if (body.awayReply) {
      const existing = await tx.automationRule.findFirst({ where: { customerId: p.customerId, builtIn: AWAY } });
      const previous = existing ? configOf(existing).actions[0] : undefined;
      const text = body.awayReply.text ?? (previous?.type === "send_text" ? previous.text : undefined);
      if (body.awayReply.enabled && !text) {
        const message = "an enabled away reply needs text";
        throw new ApiError("VALIDATION_FAILED", message, { fields: [{ path: "body.awayReply.text", message }] });
      }
      const conditions: Condition[] = [{ field: "time", op: "eq", value: { inBusinessHours: false } }];
      const actions: Action[] = text ? [{ type: "send_text", text }] : [];
      const data = {
        enabled: body.awayReply.enabled,
        conditions: conditions as unknown as Prisma.InputJsonValue,
        actions: actions as unknown as Prisma.InputJsonValue,
      };
      if (existing) await tx.automationRule.updateMany({ where: { id: existing.id, customerId: p.customerId }, data });
      else {
        await tx.automationRule.create({
          data: {
            id: newId("rule_"),
            customerId: p.customerId,
            name: "Away reply",
            builtIn: AWAY,
            triggerEvent: "message.inbound",
            trigger: { event: "message.inbound" },
            senderIds: [],
            ...data,
          },
        });
      }
    }
    await recordAudit(tx, {
      ...auditContext(p),
      action: "business_hours.updated",
      target: { type: "account", uid: p.customerId },
      details: {
        ...(body.businessHours !== undefined ? { businessHours: body.businessHours === null ? "removed" : "set" } : {}),
        ...(body.awayReply ? { awayReply: body.awayReply.enabled } : {}),
      },
    });
  });
  return getBusinessHoursSetting(p);
}
