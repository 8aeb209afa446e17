// A customer's custom contact field definitions (key, label, type).

import { ApiError } from "@/lib/core/errors";
import { db, type Tx } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { type ContactField, Prisma } from "@/lib/generated/prisma/client";
import type { ContactFieldCreateInput } from "./schemas";

export async function listContactFields(p: Principal, tx: Tx = db): Promise<ContactField[]> {
  return tx.contactField.findMany({
    where: { customerId: p.customerId },
    orderBy: [{ createdAt: "asc" }, { key: "asc" }],
  });
}

/** Creates a definition; a key the customer already has is a VALIDATION_FAILED. */
export async function createContactField(p: Principal, input: ContactFieldCreateInput["field"]): Promise<ContactField> {
  try {
    return await db.contactField.create({
      data: { customerId: p.customerId, key: input.key, label: input.label, type: input.type },
    });
  } catch (error) {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002") {
      const message = `A custom field with key "${input.key}" already exists`;
      throw new ApiError("VALIDATION_FAILED", message, { fields: [{ path: "body.field.key", message }] });
    }
    throw error;
  }
}
