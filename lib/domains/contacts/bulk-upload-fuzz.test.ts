// Property: whatever rows arrive, a bulk upload answers 200 with a report that adds up
// (received = created + updated + failed), or 400 for a body it cannot take; never 5xx.
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";

let me: TestCustomer;
let bookUid: string;

beforeAll(async () => {
  me = await createTestCustomer();
  await call("POST", "/api/v3/contact-fields", {
    token: me.globalToken,
    body: { field: { key: "score", label: "Score", type: "number" } },
  });
  const res = await call("POST", "/api/v3/contact-books", {
    token: me.globalToken,
    body: { contactBook: { name: "Fuzz" } },
  });
  bookUid = res.body.data.uid;
});

const phone = fc.oneof(
  fc.string(),
  fc.integer({ min: 1_000_000, max: 999_999_999 }).map((n) => `+1415${n}`),
  fc.constantFrom("+14155550100", "+1 415 555 0100", "0", "", "+"),
);
const row = fc.oneof(
  fc.record(
    {
      phoneNumber: phone,
      name: fc.oneof(fc.string(), fc.constant(null), fc.integer()),
      email: fc.oneof(fc.emailAddress(), fc.string(), fc.constant(null)),
      customFields: fc.dictionary(fc.constantFrom("score", "other", "__proto__"), fc.jsonValue()),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
);

it("never answers 5xx and always reports consistently", async () => {
  await fc.assert(
    fc.asyncProperty(fc.oneof(fc.array(row, { maxLength: 20 }), fc.jsonValue()), async (contacts) => {
      const res = await call("POST", `/api/v3/contact-books/${bookUid}/contacts/bulk`, {
        token: me.globalToken,
        body: { contacts },
      });
      expect(res.status).toBeLessThan(500);
      if (res.status === 200) {
        const r = res.body.data;
        expect(r.received).toBe((contacts as unknown[]).length);
        expect(r.created + r.updated + r.failed).toBe(r.received);
        expect(r.errors).toHaveLength(r.failed);
      } else {
        expect(res.body.error_code).toBe("VALIDATION_FAILED");
      }
    }),
    { numRuns: 60 },
  );
});
