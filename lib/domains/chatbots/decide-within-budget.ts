// A bot's decision under the pattern budget (docs/chatbots.md "Patterns"): bots without
// patterns, and any bot outside its business hours (the away reply matches nothing), are
// decided inline; a bot with patterns is decided in the rule worker pool (rule-pool.ts).
// Out of time: the fallback answers (or nothing, without one), and a warning is logged.
import { env } from "@/lib/core/env";
import { log } from "@/lib/core/log";
import { type BotConfig, type Decision, decide, hasPatterns, LIMITS, withinBusinessHours } from "./engine";
import { decideInPool } from "./rule-pool";

/** A decision, and whether the bot's patterns ran out of their budget (the fallback answered). */
export type TimedDecision = Decision & { timedOut: boolean };

export type BudgetSubject = { chatbotId: string; customerId: string };

/** What a bot answers when its patterns ran out of time: its fallback, or nothing. */
export function outOfTime(bot: BotConfig): TimedDecision {
  return {
    matchedRule: null,
    reply: bot.fallbackReply ?? null,
    handoff: false,
    withinBusinessHours: true,
    timedOut: true,
  };
}

export async function decideWithinBudget(
  bot: BotConfig,
  text: string,
  now: Date,
  subject: BudgetSubject,
  replyId?: string | null,
): Promise<TimedDecision> {
  const open = bot.businessHours ? withinBusinessHours(bot.businessHours, now) : true;
  if (!open || !hasPatterns(bot)) return { ...decide(bot, text, now, replyId), timedOut: false };
  const budgetMs = env().CHATBOT_RULE_BUDGET_MS;
  const result = await decideInPool(bot, text.slice(0, LIMITS.inboundLength), now, budgetMs, replyId);
  if ("decision" in result) return { ...result.decision, timedOut: false };
  log.warn(
    { ...subject, budgetMs, textLength: text.length },
    "chatbot patterns ran out of their time budget; the fallback answers",
  );
  return outOfTime(bot);
}
