// Public shapes of contact books, contacts, custom fields and blacklist entries: every
// field the contract shows, named here, so no new column leaks by accident.
import type { BlacklistEntry, Contact, ContactBook, ContactField } from "@/lib/generated/prisma/client";

export type ContactBookWithCount = ContactBook & { _count: { contacts: number } };

/** docs/api/contact-books.md "Books", exactly. */
export function toPublicContactBook(book: ContactBookWithCount) {
  return {
    contactBookUid: book.id,
    uid: book.id,
    name: book.name,
    description: book.description,
    color: book.color,
    status: book.status,
    contactCount: book._count.contacts,
    createdAt: book.createdAt.toISOString(),
    updatedAt: book.updatedAt.toISOString(),
  };
}

function fieldsObject(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function toPublicContact(contact: Contact & { labels: string[] }) {
  return {
    contactUid: contact.id,
    uid: contact.id,
    phoneNumber: contact.phoneNumber,
    name: contact.name,
    email: contact.email,
    customFields: fieldsObject(contact.customFields),
    labels: contact.labels,
    createdAt: contact.createdAt.toISOString(),
    updatedAt: contact.updatedAt.toISOString(),
  };
}

export function toPublicContactField(field: ContactField) {
  return { key: field.key, label: field.label, type: field.type, createdAt: field.createdAt.toISOString() };
}

export function toPublicBlacklistEntry(entry: BlacklistEntry) {
  return {
    phoneNumber: entry.phoneNumber,
    reason: entry.reason,
    source: entry.source,
    inboundMessageId: entry.inboundMessageId,
    createdAt: entry.createdAt.toISOString(),
  };
}
