// Self-service sign-up: a new customer account (plan pro) and its first user, in one transaction.

import { hashPassword } from "@/lib/auth/password";
import type { SignupInputValue } from "@/lib/auth/schemas";
import { ApiError } from "@/lib/core/errors";
import { db } from "@/lib/db";
import { Prisma } from "@/lib/generated/prisma/client";
import { createCustomer } from "./service";

export async function signUp(input: SignupInputValue) {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.$transaction(async (tx) => {
      const customer = await createCustomer({ name: input.company, plan: "pro" }, tx);
      const user = await tx.user.create({
        data: { customerId: customer.id, email, name: input.name || null, passwordHash },
      });
      return { customer, user };
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new ApiError("CONFLICT", "An account with this email already exists. Sign in instead.");
    }
    throw error;
  }
}
