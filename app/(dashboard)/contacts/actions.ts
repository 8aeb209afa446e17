"use server";
import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { requirePermission } from "@/lib/dashboard/guard";
import { createContactBook, updateContactBook } from "@/lib/domains/contacts/books";
import { createContactField } from "@/lib/domains/contacts/fields";
import { ContactBookFields, ContactBookPatch, ContactFieldCreateBody } from "@/lib/domains/contacts/schemas";

export async function createBookAction(raw: Record<string, string>): Promise<ActionResult<{ uid: string }>> {
  const p = await requirePermission("contacts.write");
  const result = await runAction(async () => {
    const book = await createContactBook(p, ContactBookFields.parse(raw));
    return { uid: book.id };
  }, raw);
  if (result.ok) revalidatePath("/contacts");
  return result;
}

export async function updateBookAction(uid: string, raw: Record<string, string>): Promise<ActionResult> {
  const p = await requirePermission("contacts.write");
  const result = await runAction(async () => {
    await updateContactBook(p, uid, ContactBookPatch.parse(raw));
    return undefined;
  }, raw);
  if (result.ok) revalidatePath(`/contacts/${uid}`);
  return result;
}

export async function createFieldAction(raw: Record<string, string>): Promise<ActionResult> {
  const p = await requirePermission("contacts.write");
  const result = await runAction(async () => {
    await createContactField(p, ContactFieldCreateBody.parse({ field: raw }).field);
    return undefined;
  }, raw);
  if (result.ok) revalidatePath("/contacts");
  return result;
}
