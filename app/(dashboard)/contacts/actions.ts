"use server";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { createContactBook, updateContactBook } from "@/lib/domains/contacts/books";
import { createContactField } from "@/lib/domains/contacts/fields";
import { ContactBookFields, ContactBookUpdateBody, ContactFieldCreateBody } from "@/lib/domains/contacts/schemas";

export const createBookAction = defineAction({
  permission: "contacts.write",
  schema: ContactBookFields,
  run: async ({ principal, input }) => ({ uid: (await createContactBook(principal, input)).id }),
  revalidate: "/contacts",
});

export const updateBookAction = defineAction({
  permission: "contacts.write",
  schema: ContactBookUpdateBody.extend({ uid: RecordId }),
  run: async ({ principal, input }) => ({ uid: (await updateContactBook(principal, input.uid, input.contactBook)).id }),
  revalidate: ({ input }) => `/contacts/${input.uid}`,
});

export const createFieldAction = defineAction({
  permission: "contacts.write",
  schema: ContactFieldCreateBody,
  run: async ({ principal, input }) => {
    await createContactField(principal, input.field);
  },
  revalidate: "/contacts",
});
