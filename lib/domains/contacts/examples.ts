// The OpenAPI examples of the contact book, contact, custom field and blacklist routes
// (docs/openapi.md "Adding a route"): one sample row per resource through the serializers
// the routes answer with; the bulk upload's report from the row checks themselves.
import { exampleTime, listExample, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import type { BlacklistEntry, Contact, ContactField } from "@/lib/generated/prisma/client";
import { sortRows } from "./bulk-upload";
import {
  type ContactBookWithCount,
  toPublicBlacklistEntry,
  toPublicContact,
  toPublicContactBook,
  toPublicContactField,
} from "./serializers";

const bookRow: ContactBookWithCount = {
  id: "cmwtr9coo000zug7dc0cbdjah",
  customerId: SAMPLE_CUSTOMER_ID,
  name: "VIP",
  description: "",
  color: "#4F46E5",
  status: "ACTIVE",
  createdAt: exampleTime(),
  updatedAt: exampleTime(),
  _count: { contacts: 0 },
};
const book = toPublicContactBook(bookRow);
const params = { contactBookUid: bookRow.id };

const fieldRow: ContactField = {
  id: "cmwtr9cqz0011ug7dfield001",
  customerId: SAMPLE_CUSTOMER_ID,
  key: "city",
  label: "City",
  type: "text",
  createdAt: exampleTime(),
};
const field = toPublicContactField(fieldRow);

const contactRow: Contact = {
  id: "cmwtr9d570001a41e879271d8",
  customerId: SAMPLE_CUSTOMER_ID,
  contactBookId: bookRow.id,
  phoneNumber: "+18244752966",
  name: "Ada",
  email: null,
  customFields: { city: "Paris" },
  searchText: "ada",
  uploadId: null,
  uploadRow: null,
  createdAt: exampleTime(1),
  updatedAt: exampleTime(1),
};

const entryRow: BlacklistEntry = {
  id: "cmwtr9dc40015ug7dblack001",
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  phoneNumber: contactRow.phoneNumber,
  reason: "asked",
  source: "api",
  inboundMessageId: null,
  createdAt: exampleTime(2),
};
const entry = toPublicBlacklistEntry(entryRow);

export const getContactBooks = {
  message: "Contact books retrieved",
  // The contact-book list block (docs/api/pagination.md): no total, hasMore from one extra row.
  response: listExample("contactBooks", [book], { page: 1, limit: 50, count: 1, hasMore: false }),
};

export const postContactBooks = {
  request: { contactBook: { name: "VIP" } },
  message: "Contact book created",
  response: book,
};

export const getContactBooksByContactBookUid = { params, message: "Contact book retrieved", response: book };

export const postContactBooksByContactBookUid = {
  params,
  request: { contactBook: { name: "VIPs" } },
  message: "Contact book updated",
  response: toPublicContactBook({ ...bookRow, name: "VIPs", updatedAt: exampleTime(1) }),
};

export const getContactBooksByContactBookUidContacts = {
  params,
  message: "Contacts retrieved",
  response: {
    contactBookUid: bookRow.id,
    ...listExample("contacts", [toPublicContact({ ...contactRow, labels: ["VIP"] })]),
  },
};

const bulkRows = [
  { phoneNumber: contactRow.phoneNumber, name: "Ada", customFields: { city: "Paris" } },
  { phoneNumber: "12" },
];
const sorted = sortRows(bulkRows, new Map([[fieldRow.key, fieldRow.type]]));

export const postContactBooksByContactBookUidContactsBulk = {
  params,
  request: { contacts: bulkRows },
  message: `Contacts uploaded; ${sorted.errors.length} row(s) were rejected`,
  response: {
    received: bulkRows.length,
    created: sorted.good.length,
    updated: 0,
    failed: sorted.errors.length,
    errors: sorted.errors,
  },
};

export const getContactFields = {
  message: "Contact fields retrieved",
  response: listExample("fields", [field], null),
};

export const postContactFields = {
  request: { field: { key: fieldRow.key, label: fieldRow.label, type: fieldRow.type } },
  message: "Contact field created",
  response: field,
};

export const getBlacklist = {
  message: "Blacklist retrieved",
  response: {
    senderId: sampleSender.phoneNumber,
    phoneNumberId: sampleSender.phoneNumberId,
    ...listExample("entries", [entry]),
  },
};

export const postBlacklist = {
  request: { phoneNumber: entryRow.phoneNumber, reason: "asked" },
  message: "Number blacklisted",
  response: entry,
};

export const postBlacklistRemove = {
  request: { phoneNumber: entryRow.phoneNumber },
  message: "Number removed from the blacklist",
  response: { senderId: sampleSender.phoneNumber, phoneNumber: entryRow.phoneNumber, removed: true },
};
