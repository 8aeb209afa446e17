// An event's body is typed from its definition's schema (lib/domains/events/define.ts): each
// line marked as an expected type error below is a body that does not fit, and `tsc --noEmit`
// (npm run lint, the lint step of npm test) fails if one of them compiles. The run-time half: what `of`
// builds is the emit input, with the definition's type.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineEvent, envelopeExample, envelopeSchema } from "./define";

const Closed = defineEvent({
  type: "thing.closed",
  description: "A thing was closed.",
  schema: z.object({ thingUid: z.string(), status: z.literal("CLOSED"), closedBy: z.string().nullable() }),
  example: { thingUid: "th_1", status: "CLOSED", closedBy: null },
});
const sender = { id: "s1", customerId: "c1", phoneNumber: "+15550100001", phoneNumberId: null };

describe("defineEvent", () => {
  it("builds the emit input of a body that fits, with the definition's type", () => {
    const input = Closed.of({
      sender,
      dedupeKey: "thing.closed:th_1",
      data: { thingUid: "th_1", status: "CLOSED", closedBy: "a@example.com" },
    });
    expect(input).toMatchObject({ type: "thing.closed", dedupeKey: "thing.closed:th_1", sender });
    expect(Closed.schema.safeParse(input.data).success).toBe(true);
  });

  it("does not compile a body that does not fit its schema", () => {
    const wrong = [
      // @ts-expect-error: status must be "CLOSED"
      Closed.of({ sender, dedupeKey: null, data: { thingUid: "th_1", status: "OPEN", closedBy: null } }),
      // @ts-expect-error: closedBy is missing
      Closed.of({ sender, dedupeKey: null, data: { thingUid: "th_1", status: "CLOSED" } }),
      // @ts-expect-error: thingUid is a string
      Closed.of({ sender, dedupeKey: null, data: { thingUid: 1, status: "CLOSED", closedBy: null } }),
    ];
    // The run time does not check (the compiler did): the schema refuses each.
    for (const input of wrong) expect(Closed.schema.safeParse(input.data).success).toBe(false);
  });

  it("wraps the example in the delivered envelope, which its schema accepts", () => {
    const body = envelopeExample(Closed.type, Closed.example);
    expect(envelopeSchema(Closed.type, Closed.schema).safeParse(body).success).toBe(true);
    expect(envelopeSchema("other.type", Closed.schema).safeParse(body).success).toBe(false);
  });
});
