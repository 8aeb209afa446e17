// Operator-side customer creation (the CLI and the demo seed). Self-service sign-up is signup.ts.
import { db, type Tx } from "@/lib/db";
import type { Customer, Plan } from "@/lib/generated/prisma/client";

export type CreateCustomerInput = { name: string; plan?: Plan; currency?: string };

export async function createCustomer(input: CreateCustomerInput, tx: Tx = db): Promise<Customer> {
  return tx.customer.create({
    data: { name: input.name.trim(), plan: input.plan ?? "pro", currency: input.currency ?? "USD" },
  });
}
