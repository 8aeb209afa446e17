// The first-run checklist (docs/dashboard.md "First run"): each step is done when the account's own data
// says so, never by a flag someone must remember to set. Tenant in every where.

import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";

export type OnboardingStepKey = "sender" | "token" | "message" | "webhook";

export type OnboardingStep = { key: OnboardingStepKey; title: string; href: string; done: boolean };

export type OnboardingProgress = { steps: OnboardingStep[]; done: number; total: number; complete: boolean };

export async function onboardingProgress(p: Principal): Promise<OnboardingProgress> {
  const customerId = p.customerId;
  const [senders, tokens, messages, webhooks] = await Promise.all([
    db.sender.count({ where: { customerId, phoneNumberId: { not: null } } }),
    db.apiToken.count({ where: { customerId, revokedAt: null } }),
    // Sent: the provider took it (lib/domains/messages/status.ts wentOut), whatever became of it since.
    db.message.count({
      where: {
        customerId,
        status: { notIn: ["unknown", "sending"] },
        NOT: { status: "failed", providerMessageId: null },
      },
    }),
    db.webhookDestination.count({ where: { customerId } }),
  ]);
  const steps: OnboardingStep[] = [
    { key: "sender", title: "Add a sender", href: "/senders", done: senders > 0 },
    { key: "token", title: "Create an API token", href: "/tokens", done: tokens > 0 },
    { key: "message", title: "Send a first message", href: "/messages", done: messages > 0 },
    { key: "webhook", title: "Add a webhook", href: "/webhooks", done: webhooks > 0 },
  ];
  const done = steps.filter((s) => s.done).length;
  return { steps, done, total: steps.length, complete: done === steps.length };
}
