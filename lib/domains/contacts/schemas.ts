// Contact books, contacts, bulk upload, custom fields and blacklist: the input and public
// shapes shared by the API, the dashboard forms and the OpenAPI document.
import { z } from "zod";
import { PageBlockSchema, PageQuery } from "@/lib/core/pagination";
import { PublicId } from "@/lib/core/path-params";
import { isoTimestamp } from "@/lib/core/timestamp-schema";
import { E164, normalizePhone, phoneField } from "@/lib/domains/senders/phone";

/** A path id: a value that is not an id we issue names no contact book (NOT_FOUND, as an unknown one). */
export const ContactBookUid = PublicId.describe("The contact book's uid");

export const CONTACT_BOOK_STATUSES = ["ACTIVE", "INACTIVE"] as const;
export const FIELD_TYPES = ["text", "number", "boolean", "date"] as const;
export const BULK_MAX_ROWS = 5_000;
/** About 2 KiB a row at the row limit. */
export const BULK_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/** Treats an empty query value (`?status=`) as absent. */
const blankAsAbsent = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const Search = z.preprocess(blankAsAbsent, z.string().trim().max(200).optional());

export const ContactBookStatus = z.enum(CONTACT_BOOK_STATUSES).describe("ACTIVE or INACTIVE");

export const ContactBookListQuery = PageQuery.extend({
  status: z.preprocess(blankAsAbsent, ContactBookStatus.optional()),
  search: Search.describe("Case-insensitive match on the book's name or description"),
});
export type ContactBookListInput = z.infer<typeof ContactBookListQuery>;

const Name = z.string().trim().min(1, "Name is required").max(120, "Name is at most 120 characters");
const Description = z.string().trim().max(1000, "Description is at most 1,000 characters");
const Color = z
  .string()
  .trim()
  .regex(/^#[0-9A-Fa-f]{6}$/, "Colour must be a hex code like #4F46E5")
  .transform((c) => c.toUpperCase());

export const ContactBookFields = z.object({
  name: Name,
  description: Description.optional(),
  color: Color.optional(),
  status: ContactBookStatus.optional(),
});
export type ContactBookInput = z.infer<typeof ContactBookFields>;

export const ContactBookCreateBody = z.object({ contactBook: ContactBookFields });

export const ContactBookPatch = ContactBookFields.partial().refine(
  (patch) => Object.values(patch).some((v) => v !== undefined),
  { message: "Provide at least one field to update: name, description, color or status" },
);
export type ContactBookPatchInput = z.infer<typeof ContactBookPatch>;

export const ContactBookUpdateBody = z.object({ contactBook: ContactBookPatch });

export const ContactListQuery = PageQuery.extend({
  search: Search.describe(
    "Match on the name or email whatever the case and accents (chloe finds Chloé), or on the phone number's digits",
  ),
  label: z
    .preprocess(blankAsAbsent, z.string().trim().max(40).optional())
    .describe("A label's name (whatever the case): only the contacts whose number carries it"),
});
export type ContactListInput = z.infer<typeof ContactListQuery>;

/** The dashboard's search across every book of the account: a term is required. */
export const ContactSearchQuery = PageQuery.extend({
  search: z.string().trim().min(1, "Enter a name, email or number to search for").max(200),
});
export type ContactSearchInput = z.infer<typeof ContactSearchQuery>;

/** One upload row, as checked per row by the upload service. */
export const BulkContactRow = z.object({
  phoneNumber: z
    .union([z.string(), z.number()])
    .describe("Phone number with + and the country code; stored as E.164 (refused when not international)"),
  name: z.string().trim().max(200).nullish(),
  email: z.string().trim().max(320).nullish(),
  customFields: z.record(z.string(), z.unknown()).nullish(),
});

function rowJsonSchema(): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(BulkContactRow, { io: "input" });
  return rest;
}

/** The largest row number stored (a PostgreSQL integer). */
const MAX_ROW_NUMBER = 2_147_483_647;

/**
 * Rows are checked one by one by the upload service (a bad row is reported, not fatal),
 * so the body schema only bounds the array. A bare JSON array is accepted too. A file sent
 * in several requests names them with one `uploadId` and gives each contact its row in the
 * file (`rowNumbers`), so a number is refused wherever in the file it repeats and every
 * message names the file's rows (docs/api/contact-books.md "Bulk upload").
 */
export const BulkUploadBody = z.preprocess(
  (v) => (Array.isArray(v) ? { contacts: v } : v),
  z
    .object({
      contacts: z
        .array(z.unknown())
        .min(1, "Send at least one contact row")
        .max(BULK_MAX_ROWS, `At most ${BULK_MAX_ROWS.toLocaleString("en-US")} contact rows per request`)
        .describe("Rows {phoneNumber, name?, email?, customFields?}; at most 5,000 per request")
        // Documents the row shape although rows are checked one by one (see above).
        .meta({ items: rowJsonSchema() } as Record<string, unknown>),
      uploadId: z
        .string()
        .regex(/^[A-Za-z0-9_-]{8,64}$/, "uploadId is 8 to 64 letters, digits, _ or -")
        .optional()
        .describe(
          "One id for every request of one file (8-64 letters, digits, _ or -; a new one per file): a number an earlier request of the upload stored is refused as DUPLICATE_PHONE_NUMBER. Without it the request is an upload of its own",
        ),
      rowNumbers: z
        .array(z.number().int().min(1).max(MAX_ROW_NUMBER))
        .optional()
        .describe(
          "The row of each contact in your file, one per contact (a CSV's header is row 1); messages name these rows. Default: 1, 2, 3… in the order of contacts",
        ),
    })
    .refine((b) => b.rowNumbers === undefined || b.rowNumbers.length === b.contacts.length, {
      path: ["rowNumbers"],
      message: "rowNumbers must give one row number per contact",
    }),
);

/** Per-row error codes of a bulk upload report. */
export const ROW_ERROR_CODES = [
  "INVALID_ROW",
  "INVALID_PHONE_NUMBER",
  "INVALID_EMAIL",
  "UNKNOWN_CUSTOM_FIELD",
  "INVALID_CUSTOM_FIELD_VALUE",
  "DUPLICATE_PHONE_NUMBER",
] as const;
export type RowErrorCode = (typeof ROW_ERROR_CODES)[number];

export const ContactFieldType = z.enum(FIELD_TYPES);
export type FieldTypeValue = z.infer<typeof ContactFieldType>;

export const RESERVED_FIELD_KEYS = ["phone_number", "name", "email"] as const;

export const ContactFieldCreateBody = z.object({
  field: z.object({
    key: z
      .string()
      .trim()
      .regex(/^[a-z][a-z0-9_]{0,49}$/, "Key must be snake_case: a lower-case letter, then a-z, 0-9 or _ (max 50)")
      .refine((k) => !(RESERVED_FIELD_KEYS as readonly string[]).includes(k), {
        message: "phone_number, name and email are built-in contact fields",
      }),
    label: z.string().trim().min(1, "Label is required").max(80, "Label is at most 80 characters"),
    type: ContactFieldType.describe("text, number, boolean or date"),
  }),
});
export type ContactFieldCreateInput = z.infer<typeof ContactFieldCreateBody>;

export const BlacklistQuery = PageQuery.extend({
  senderId: z.string().optional().describe("Sender phone number; default: the token's or the default sender"),
  search: Search.describe("Match on the blacklisted phone number"),
});
export type BlacklistInput = z.infer<typeof BlacklistQuery>;

// Public shapes (data of the success envelope), for the OpenAPI document.

export const PublicContactBook = z
  .object({
    contactBookUid: z.string(),
    uid: z.string(),
    name: z.string(),
    description: z.string(),
    color: z.string(),
    status: ContactBookStatus,
    contactCount: z.number().int(),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "ContactBook" });

export const ContactBookListData = z.object({
  contactBooks: z.array(PublicContactBook),
  items: z.array(PublicContactBook),
  pagination: z.object({ page: z.number(), limit: z.number(), count: z.number(), hasMore: z.boolean() }),
});

export const PublicContact = z
  .object({
    contactUid: z.string(),
    uid: z.string(),
    phoneNumber: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    customFields: z.record(z.string(), z.unknown()),
    labels: z
      .array(z.string())
      .describe(
        "The labels the phone number carries in the account (across its books and conversations), sorted by name",
      ),
    createdAt: isoTimestamp(),
    updatedAt: isoTimestamp(),
  })
  .meta({ id: "Contact" });

export const ContactListData = z.object({
  contactBookUid: z.string(),
  contacts: z.array(PublicContact),
  items: z.array(PublicContact),
  pagination: PageBlockSchema,
});

export const BulkUploadReport = z
  .object({
    received: z.number().int(),
    created: z.number().int(),
    updated: z.number().int(),
    failed: z.number().int(),
    errors: z.array(z.object({ index: z.number().int(), error_code: z.enum(ROW_ERROR_CODES), message: z.string() })),
  })
  .meta({ id: "ContactBulkUploadReport" });

export const PublicContactField = z
  .object({
    key: z.string(),
    label: z.string(),
    type: ContactFieldType,
    createdAt: isoTimestamp(),
  })
  .meta({ id: "ContactField" });

export const ContactFieldListData = z.object({
  fields: z.array(PublicContactField),
  items: z.array(PublicContactField),
});

export const PublicBlacklistEntry = z
  .object({
    phoneNumber: z.string(),
    reason: z.string().nullable(),
    source: z.string().describe("api, dashboard or opt-out (an inbound opt-out keyword)"),
    inboundMessageId: z.string().nullable().describe("The opt-out message's provider id (source opt-out)"),
    createdAt: isoTimestamp(),
  })
  .meta({ id: "BlacklistEntry" });

/** A number to blacklist: the one phone parser, international only (docs/messaging.md "Phone numbers"). */
const BlacklistPhone = phoneField().describe("Phone number with + and the country code");
/** A number to take off: a look-up of what is stored, so an entry kept before the parser can still go. */
const BlacklistedPhone = z
  .union([z.string(), z.number()])
  .transform((v) => normalizePhone(String(v)))
  .pipe(z.string().regex(E164, "must be a phone number with + and the country code, like +14155550123"));
const BlacklistSender = z
  .string()
  .optional()
  .describe("Sender phone number; default: the token's or the default sender");

/** POST /blacklist: add a number (idempotent: an existing entry is kept, its reason updated when given). */
export const BlacklistAddBody = z.object({
  senderId: BlacklistSender,
  phoneNumber: BlacklistPhone,
  reason: z.string().trim().max(200).optional(),
});

/** POST /blacklist/remove: take a number off (the contract has no DELETE verbs). */
export const BlacklistRemoveBody = z.object({ senderId: BlacklistSender, phoneNumber: BlacklistedPhone });

export const BlacklistRemoveData = z.object({
  senderId: z.string(),
  phoneNumber: z.string(),
  removed: z.boolean().describe("false: the number was not on the blacklist"),
});

export const BlacklistData = z.object({
  senderId: z.string(),
  phoneNumberId: z.string().nullable(),
  entries: z.array(PublicBlacklistEntry),
  items: z.array(PublicBlacklistEntry),
  pagination: PageBlockSchema,
});
