// Dashboard users created by an operator (CLI, demo seed). Passwords are stored as argon2id hashes.

import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import { hashPassword } from "@/lib/domains/auth/password";
import { Prisma, type User } from "@/lib/generated/prisma/client";

export class UserEmailTakenError extends ApiError {
  constructor(readonly email: string) {
    super("CONFLICT", `A user with email ${email} already exists`, {
      fields: [{ path: "email", message: "a user with this email already exists" }],
    });
    this.name = "UserEmailTakenError";
  }
}

export type CreateUserInput = { customerId: string; email: string; password: string; name?: string | null };

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Creates a user; a taken email (they are unique across customers) throws UserEmailTakenError. */
export async function createUser(input: CreateUserInput, tx: Tx = db): Promise<User> {
  const email = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  try {
    return await tx.user.create({
      data: { customerId: input.customerId, email, name: input.name ?? null, passwordHash },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      throw new UserEmailTakenError(email);
    }
    throw error;
  }
}
