// Public shapes of rules and runs (docs/automation.md): every field named here, so a new
// column (the round-robin's pointer, builtIn) never leaks.
import type { AutomationRule, AutomationRun } from "@/lib/generated/prisma/client";
import type { Action, ActionOutcome, Condition, RulePublic, RunPublic, Trigger, TriggerEvent } from "./schemas";

/** A rule's stored JSON as the engine reads it (validated on the way in). */
export type RuleConfig = { trigger: Trigger; conditions: Condition[]; actions: Action[] };
export const configOf = (row: Pick<AutomationRule, "trigger" | "conditions" | "actions">): RuleConfig => ({
  trigger: row.trigger as unknown as Trigger,
  conditions: (row.conditions ?? []) as unknown as Condition[],
  actions: (row.actions ?? []) as unknown as Action[],
});

/** `phones`: sender id -> phone number, for the senderIds the API shows. */
export function toPublicRule(row: AutomationRule, phones: ReadonlyMap<string, string>): RulePublic {
  const config = configOf(row);
  return {
    ruleUid: row.id,
    name: row.name,
    enabled: row.enabled,
    trigger: config.trigger,
    conditions: config.conditions,
    actions: config.actions,
    senderIds: row.senderIds.flatMap((id) => {
      const phone = phones.get(id);
      return phone ? [phone] : [];
    }),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toPublicRun(row: AutomationRun): RunPublic {
  return {
    runUid: row.id,
    trigger: row.trigger as TriggerEvent,
    conversationUid: row.conversationId,
    outcome: row.outcome as RunPublic["outcome"],
    actions: (row.actions ?? []) as unknown as ActionOutcome[],
    at: row.createdAt.toISOString(),
  };
}
