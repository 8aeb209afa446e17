// Self-service sign-up: a new customer account (plan pro) and its first user, in one
// transaction; limited per client IP (RATE_LIMIT_SIGNUP_IP an hour, memory or Redis).

import { minutesOfWait } from "@/lib/core/count";
import { env } from "@/lib/core/env";
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { type AttemptLimiter, createAttemptLimiter } from "@/lib/domains/auth/attempt-limiter";
import { hashPassword } from "@/lib/domains/auth/password";
import type { SignupInputValue } from "@/lib/domains/auth/schemas";
import { addCredit } from "@/lib/domains/billing/credits";
import { providerMode } from "@/lib/domains/provider/client";
import { Prisma } from "@/lib/generated/prisma/client";
import { createCustomer } from "./service";

let limiter: AttemptLimiter<"ip"> | undefined;

export const WELCOME_CREDIT_NOTE = "Welcome credit (simulator)";

/**
 * In simulator mode a new account starts with SIMULATOR_WELCOME_CREDIT on its ledger (its own
 * entry, booked once), so the first template of the onboarding is not refused for balance.
 */
async function welcomeCredit(tx: Tx, customerId: string): Promise<void> {
  const amount = env().SIMULATOR_WELCOME_CREDIT;
  if (providerMode() !== "simulator" || amount <= 0) return;
  await addCredit(
    { customerId, amount: String(amount), note: WELCOME_CREDIT_NOTE, onceKey: `welcome:${customerId}` },
    tx,
  );
}

function signupLimiter(): AttemptLimiter<"ip"> {
  const e = env();
  limiter ??= createAttemptLimiter({
    budgets: { ip: { points: e.RATE_LIMIT_SIGNUP_IP, windowSeconds: 3600 } },
    redisUrl: e.REDIS_URL,
    keyPrefix: "swb_signup",
  });
  return limiter;
}

/** `clientIp`: the caller's address (the dashboard action reads it as lib/core/client-ip.ts says). */
export async function signUp(input: SignupInputValue, clientIp: string) {
  // Counted before any work, so a burst of parallel sign-ups cannot slip past the limit.
  const gate = await signupLimiter().reserve({ ip: clientIp });
  if (!gate.allowed) {
    const wait = minutesOfWait(gate.retryAfterSeconds);
    throw new ApiError("RATE_LIMITED", `Too many sign-ups from your network. Try again in ${wait}.`, {
      retryAfterSeconds: gate.retryAfterSeconds,
    });
  }
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.$transaction(async (tx) => {
      const customer = await createCustomer({ name: input.company, plan: "pro" }, tx);
      const user = await tx.user.create({
        data: { customerId: customer.id, email, name: input.name || null, passwordHash },
      });
      await welcomeCredit(tx, customer.id);
      return { customer, user };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new ApiError("CONFLICT", "An account with this email already exists. Sign in instead.");
    }
    throw error;
  }
}
