// Contact books, contacts, bulk upload, custom fields (global token only) and the
// resolved sender's blacklist (number-scoped tokens allowed). Thin: parse, call, shape.
import { listOf } from "@/lib/core/pagination";
import { listBlacklist } from "@/lib/domains/contacts/blacklist";
import { createContactBook, getContactBook, listContactBooks, updateContactBook } from "@/lib/domains/contacts/books";
import { bulkUploadContacts } from "@/lib/domains/contacts/bulk-upload";
import { listContacts } from "@/lib/domains/contacts/contacts";
import * as examples from "@/lib/domains/contacts/examples";
import { createContactField, listContactFields } from "@/lib/domains/contacts/fields";
import {
  BlacklistData,
  BlacklistQuery,
  BULK_BODY_LIMIT_BYTES,
  BulkUploadBody,
  BulkUploadReport,
  ContactBookCreateBody,
  ContactBookListData,
  ContactBookListQuery,
  ContactBookUid,
  ContactBookUpdateBody,
  ContactFieldCreateBody,
  ContactFieldListData,
  ContactListData,
  ContactListQuery,
  PublicContactBook,
  PublicContactField,
} from "@/lib/domains/contacts/schemas";
import {
  toPublicBlacklistEntry,
  toPublicContact,
  toPublicContactBook,
  toPublicContactField,
} from "@/lib/domains/contacts/serializers";
import { type AnyRoute, ok, route } from "../route-definition";

const common = {
  versions: ["v2", "v3"],
  limit: "global",
  feature: "contactBooks",
  tag: "Contact books",
} as const;
const globalOnly = { ...common, tokenScope: "global", params: { contactBookUid: ContactBookUid } } as const;

export const contactRoutes: AnyRoute[] = [
  route({
    ...globalOnly,
    method: "GET",
    path: "/contact-books",
    permission: "contacts.read",
    example: examples.getContactBooks,
    summary: "List contact books",
    description: "Filter by status and search text.",
    query: ContactBookListQuery,
    response: ContactBookListData,
    handler: async ({ principal, query }) => {
      const { books, pagination } = await listContactBooks(principal, query);
      return ok("Contact books retrieved", { ...listOf("contactBooks", books.map(toPublicContactBook)), pagination });
    },
  }),
  route({
    ...globalOnly,
    method: "POST",
    path: "/contact-books",
    permission: "contacts.write",
    example: examples.postContactBooks,
    idempotent: "contact-book.create",
    summary: "Create a contact book",
    body: ContactBookCreateBody,
    response: PublicContactBook,
    successStatus: 201,
    handler: async ({ principal, body }) => {
      const book = await createContactBook(principal, body.contactBook);
      return { status: 201, ...ok("Contact book created", toPublicContactBook(book)) };
    },
  }),
  route({
    ...globalOnly,
    method: "GET",
    path: "/contact-books/:contactBookUid",
    permission: "contacts.read",
    example: examples.getContactBooksByContactBookUid,
    summary: "Read a contact book",
    response: PublicContactBook,
    handler: async ({ principal, params }) =>
      ok("Contact book retrieved", toPublicContactBook(await getContactBook(principal, params.contactBookUid))),
  }),
  route({
    ...globalOnly,
    method: "POST",
    path: "/contact-books/:contactBookUid",
    permission: "contacts.write",
    example: examples.postContactBooksByContactBookUid,
    summary: "Update a contact book",
    description: "At least one field: name, description, color or status.",
    body: ContactBookUpdateBody,
    response: PublicContactBook,
    handler: async ({ principal, params, body }) => {
      const book = await updateContactBook(principal, params.contactBookUid, body.contactBook);
      return ok("Contact book updated", toPublicContactBook(book));
    },
  }),
  route({
    ...globalOnly,
    method: "GET",
    path: "/contact-books/:contactBookUid/contacts",
    permission: "contacts.read",
    example: examples.getContactBooksByContactBookUidContacts,
    summary: "List the contacts of a book",
    description: "Search and paginate the book's contacts.",
    query: ContactListQuery,
    response: ContactListData,
    handler: async ({ principal, params, query }) => {
      const uid = params.contactBookUid;
      const { contacts, pagination } = await listContacts(principal, uid, query);
      return ok("Contacts retrieved", {
        contactBookUid: uid,
        ...listOf("contacts", contacts.map(toPublicContact)),
        pagination,
      });
    },
  }),
  route({
    ...globalOnly,
    method: "POST",
    path: "/contact-books/:contactBookUid/contacts/bulk",
    permission: "contacts.write",
    // The dashboard's contact upload sends its chunks here too (docs/dashboard.md "Data the browser holds").
    session: true,
    example: examples.postContactBooksByContactBookUidContactsBulk,
    idempotent: "contacts.bulk",
    summary: "Bulk upload contacts",
    description: "Upserts by phone number, at most 5,000 rows per request.",
    // 5,000 rows with names, emails and custom fields outgrow the default 1 MiB.
    bodyLimitBytes: BULK_BODY_LIMIT_BYTES,
    // A row with text the database cannot store is one bad row of the report.
    textCheckedPerRow: "contacts",
    body: BulkUploadBody,
    response: BulkUploadReport,
    handler: async ({ principal, params, body }) => {
      const report = await bulkUploadContacts(principal, params.contactBookUid, body.contacts, body);
      const message =
        report.failed === 0 ? "Contacts uploaded" : `Contacts uploaded; ${report.failed} row(s) were rejected`;
      return ok(message, report);
    },
  }),
  route({
    ...globalOnly,
    method: "GET",
    path: "/contact-fields",
    permission: "contacts.read",
    example: examples.getContactFields,
    summary: "List custom contact fields",
    description: "The account's custom contact field definitions.",
    response: ContactFieldListData,
    handler: async ({ principal }) => {
      const fields = (await listContactFields(principal)).map(toPublicContactField);
      return ok("Contact fields retrieved", listOf("fields", fields));
    },
  }),
  route({
    ...globalOnly,
    method: "POST",
    path: "/contact-fields",
    permission: "contacts.write",
    example: examples.postContactFields,
    idempotent: "contact-field.create",
    summary: "Create a custom contact field",
    description: "Defines a custom field that contacts can carry.",
    body: ContactFieldCreateBody,
    response: PublicContactField,
    successStatus: 201,
    handler: async ({ principal, body }) => {
      const field = await createContactField(principal, body.field);
      return { status: 201, ...ok("Contact field created", toPublicContactField(field)) };
    },
  }),
  route({
    ...common,
    tokenScope: "any",
    sender: "resolve",
    method: "GET",
    path: "/blacklist",
    permission: "contacts.read",
    example: examples.getBlacklist,
    summary: "List the blacklist",
    description: "The message blacklist of the resolved sender.",
    query: BlacklistQuery,
    response: BlacklistData,
    handler: async ({ principal, sender, query }) => {
      const { entries, pagination } = await listBlacklist(principal, sender, query);
      return ok("Blacklist retrieved", {
        senderId: sender.phoneNumber,
        phoneNumberId: sender.phoneNumberId,
        ...listOf("entries", entries.map(toPublicBlacklistEntry)),
        pagination,
      });
    },
  }),
];
