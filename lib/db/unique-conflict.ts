// Unique-constraint races as the contract's answer. A service checks
// "does it exist?" before it creates, but two requests can both pass the check: the unique
// constraint then lets one win and refuses the others. This is the one place that knows
// which constraints a client can run into and the contract code each answers; errorAnswer
// (lib/core/error-answer.ts) asks it through recogniseErrors, registered by lib/db/index.ts,
// so a refusal a service does not catch itself is a 409 with its code, never a 500.
import { ApiError, type ErrorCode } from "@/lib/core/errors";

/** A unique constraint by its model and columns, e.g. Order(customerId,reference). */
export type UniqueViolation = { model: string; fields: string[] };

type KnownConstraint = UniqueViolation & { code: ErrorCode; message: string };

const KNOWN: KnownConstraint[] = [
  {
    model: "Order",
    fields: ["customerId", "reference"],
    code: "ORDER_REFERENCE_EXISTS",
    message: "An order with this reference exists already; follow it up with POST /orders/{orderUid}/send",
  },
  {
    model: "Template",
    fields: ["customerId", "name", "language"],
    code: "TEMPLATE_ALREADY_EXISTS",
    message: "A template with this name and language exists already",
  },
  { model: "User", fields: ["email"], code: "CONFLICT", message: "A user with this email already exists" },
  { model: "Sender", fields: ["phoneNumber"], code: "CONFLICT", message: "This phone number is already connected" },
  {
    model: "Sender",
    fields: ["phoneNumberId"],
    code: "CONFLICT",
    message: "This phone number id is already used by another sender",
  },
];

const unquote = (field: string) => field.replace(/^"|"$/g, "");

/** Prisma's P2002 (with or without a driver adapter) as the model and columns it names; else undefined. */
export function uniqueViolationOf(error: unknown): UniqueViolation | undefined {
  const e = error as {
    code?: unknown;
    meta?: {
      modelName?: unknown;
      target?: unknown;
      driverAdapterError?: { cause?: { constraint?: { fields?: unknown } } };
    };
  } | null;
  if (e?.code !== "P2002" || typeof e.meta?.modelName !== "string") return undefined;
  // With driver adapters the columns sit under meta.driverAdapterError (quoted when their
  // name has capitals); the query engine puts them in meta.target.
  const fields = e.meta.driverAdapterError?.cause?.constraint?.fields ?? e.meta.target;
  if (!Array.isArray(fields) || !fields.every((f) => typeof f === "string")) return undefined;
  return { model: e.meta.modelName, fields: fields.map(unquote) };
}

const sameColumns = (a: string[], b: string[]) => a.length === b.length && a.every((f) => b.includes(f));

/** The contract error of a unique violation on a known constraint; else undefined. */
export function uniqueConflictFrom(error: unknown): ApiError | undefined {
  const violation = uniqueViolationOf(error);
  if (!violation) return undefined;
  const known = KNOWN.find((k) => k.model === violation.model && sameColumns(k.fields, violation.fields));
  return known ? new ApiError(known.code, known.message) : undefined;
}
