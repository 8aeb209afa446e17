import { describe, expect, it } from "vitest";
import { errorAnswer } from "@/lib/core/error-answer";
import "@/lib/db";
import { uniqueConflictFrom, uniqueViolationOf } from "./unique-conflict";

/** A P2002 as Prisma raises it through the pg driver adapter. */
const adapterP2002 = (modelName: string, fields: string[]) =>
  Object.assign(new Error("Unique constraint failed"), {
    code: "P2002",
    meta: {
      modelName,
      driverAdapterError: { cause: { kind: "UniqueConstraintViolation", constraint: { fields } } },
    },
  });

describe("unique-constraint races", () => {
  it("reads the model and columns of a P2002, with the driver adapter or the query engine", () => {
    expect(uniqueViolationOf(adapterP2002("Order", ['"customerId"', "reference"]))).toEqual({
      model: "Order",
      fields: ["customerId", "reference"],
    });
    const engine = Object.assign(new Error("x"), { code: "P2002", meta: { modelName: "User", target: ["email"] } });
    expect(uniqueViolationOf(engine)).toEqual({ model: "User", fields: ["email"] });
    expect(uniqueViolationOf(new Error("P2002"))).toBeUndefined();
    expect(uniqueViolationOf({ code: "P2025", meta: { modelName: "Order" } })).toBeUndefined();
  });

  it("answers a known constraint with its contract code through errorAnswer, in any column order", () => {
    expect(errorAnswer(adapterP2002("Order", ["reference", '"customerId"']))).toMatchObject({
      status: 409,
      code: "ORDER_REFERENCE_EXISTS",
      unexpected: false,
    });
    expect(errorAnswer(adapterP2002("Template", ['"customerId"', "name", "language"]))).toMatchObject({
      status: 409,
      code: "TEMPLATE_ALREADY_EXISTS",
    });
  });

  it("leaves a constraint it does not know to the caller (a logged 500)", () => {
    expect(uniqueConflictFrom(adapterP2002("WebhookEvent", ['"dedupeKey"']))).toBeUndefined();
    expect(errorAnswer(adapterP2002("WebhookEvent", ['"dedupeKey"']))).toMatchObject({ status: 500, unexpected: true });
  });
});
