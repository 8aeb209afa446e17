// Self-service sign-up: a new customer account (plan pro) and its first user, in one
// transaction; limited per client IP (RATE_LIMIT_SIGNUP_IP an hour, memory or Redis). A taken
// email gets an email, never an answer that says it is taken (docs/security.md "Sign-up").

import { minutesOfWait } from "@/lib/core/count";
import { env } from "@/lib/core/env";
import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { type AttemptLimiter, createAttemptLimiter } from "@/lib/domains/auth/attempt-limiter";
import { hashPassword } from "@/lib/domains/auth/password";
import type { SignupInputValue } from "@/lib/domains/auth/schemas";
import { addCredit } from "@/lib/domains/billing/credits";
import { queueMail } from "@/lib/domains/mail/outbox";
import { providerMode } from "@/lib/domains/provider/client";
import { type Customer, Prisma, type User } from "@/lib/generated/prisma/client";
import { createCustomer } from "./service";
import { accountExistsMail } from "./signup-mail";

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

/** What a sign-up did: a new account, or an email to the owner of a taken address. */
export type SignUpOutcome = { status: "created"; customer: Customer; user: User } | { status: "email_sent" };

/** What the form says when the address already has an account (the email says the rest). */
export const SIGNUP_EMAIL_SENT =
  "We sent an email to this address with what to do next. Check your inbox (and spam folder).";

/**
 * An email with an account already gets no new one, and the answer does not say so
 * (docs/security.md "Sign-up"): the address's owner is emailed that they have an account
 * (sign in, or reset the password), only when it is active, as a reset request would be.
 */
async function emailExistingAccount(email: string): Promise<SignUpOutcome> {
  const user = await db.user.findUnique({
    where: { email },
    select: { customerId: true, customer: { select: { status: true } } },
  });
  if (user?.customer.status === "ACTIVE") {
    await db.$transaction((tx) => queueMail(tx, accountExistsMail({ customerId: user.customerId, to: email })));
  }
  return { status: "email_sent" };
}

/** `clientIp`: the caller's address (the dashboard action reads it as lib/core/client-ip.ts says). */
export async function signUp(input: SignupInputValue, clientIp: string): Promise<SignUpOutcome> {
  // Counted before any work, so a burst of parallel sign-ups cannot slip past the limit.
  const gate = await signupLimiter().reserve({ ip: clientIp });
  if (!gate.allowed) {
    const wait = minutesOfWait(gate.retryAfterSeconds);
    throw new ApiError("RATE_LIMITED", `Too many sign-ups from your network. Try again in ${wait}.`, {
      retryAfterSeconds: gate.retryAfterSeconds,
    });
  }
  const email = input.email.trim().toLowerCase();
  // Hashed either way: a taken address answers no faster than a new one.
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.$transaction(async (tx) => {
      const customer = await createCustomer({ name: input.company, plan: "pro" }, tx);
      const user = await tx.user.create({
        data: { customerId: customer.id, email, name: input.name || null, passwordHash },
      });
      await welcomeCredit(tx, customer.id);
      return { status: "created" as const, customer, user };
    });
  } catch (error) {
    // The email's unique index (a race of two sign-ups included): the whole account rolled back.
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      return emailExistingAccount(email);
    }
    throw error;
  }
}
