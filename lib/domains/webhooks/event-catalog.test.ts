// The event catalog's payload documentation (docs/event-pipeline.md "Event catalog"): every
// key has a JSON Schema and an example, each example validates against its schema with an
// independent JSON Schema validator (ajv, draft 2020-12), and the real emitters' bodies fit.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { closedEvent, createdEvent } from "@/lib/domains/conversations/events";
import { buildPayload } from "@/lib/domains/events/emit";
import { inboundEvent } from "@/lib/ingest/inbound";
import { call, createTestCustomer } from "@/test/factory";
import { DELIVERED_EVENT_TYPES, EVENT_KEYS, payloadDocs, payloadEntries } from "./catalog";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const sender = { id: "s1", customerId: "c1", phoneNumber: "+15550100001", phoneNumberId: "1048576" };

describe("event payload catalog", () => {
  it("every event key (and webhook.test) has a schema and an example that validates against it", () => {
    const docs = payloadDocs();
    expect(Object.keys(docs).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort());
    for (const key of DELIVERED_EVENT_TYPES) {
      const doc = docs[key];
      expect(doc, key).toBeDefined();
      const validate = ajv.compile(doc?.schema ?? {});
      expect(validate(doc?.example), `${key}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      expect(doc?.example.type).toBe(key);
    }
  });

  it("the schemas refuse what does not fit (another key's type, a missing field)", () => {
    const docs = payloadDocs();
    const sent = docs["message.status.sent"];
    if (!sent) throw new Error("message.status.sent is missing");
    const validate = ajv.compile(sent.schema);
    expect(validate({ ...sent.example, type: "message.status.read" })).toBe(false);
    const { messageId: _m, ...data } = sent.example.data as Record<string, unknown>;
    expect(validate({ ...sent.example, data })).toBe(false);
  });

  it("the emitters' real bodies fit their schemas", () => {
    const entries = payloadEntries();
    const row = { id: "conv1", contactPhoneNumber: "+15550100002", contactName: null, createdAt: new Date() };
    const bodies = [
      buildPayload("evt_1", createdEvent(sender, row, "outbound")),
      buildPayload("evt_2", closedEvent(sender, row, new Date(), null)),
      buildPayload(
        "evt_3",
        inboundEvent(
          {
            sender,
            message: {
              id: "wamid.1",
              from: "15550100002",
              timestamp: "1763892900",
              type: "text",
              text: { body: "hi" },
            },
            contacts: [{ profile: { name: "Ada" }, wa_id: "15550100002" }],
          } as Parameters<typeof inboundEvent>[0],
          "conv1",
        ),
      ),
    ];
    for (const body of JSON.parse(JSON.stringify(bodies)) as { type: string }[]) {
      const schema = entries[body.type]?.schema;
      expect(schema, body.type).toBeDefined();
      expect(schema?.safeParse(body).success, body.type).toBe(true);
      const validate = ajv.compile(payloadDocs()[body.type]?.schema ?? {});
      expect(validate(body), ajv.errorsText(validate.errors)).toBe(true);
    }
  });

  it("GET /webhooks/events serves each type's schema and example (v2 and v3), webhook.test not subscribable", async () => {
    const t = await createTestCustomer();
    for (const v of ["v2", "v3"]) {
      const res = await call("GET", `/api/${v}/webhooks/events`, { token: t.globalToken });
      expect(res.status).toBe(200);
      const events = res.body.data.groups.flatMap((g: { events: unknown[] }) => g.events) as {
        key: string;
        schema: Record<string, unknown>;
        example: unknown;
        subscribable: boolean;
      }[];
      expect(events.map((e) => e.key).sort()).toEqual([...DELIVERED_EVENT_TYPES].sort());
      expect(events.filter((e) => !e.subscribable).map((e) => e.key)).toEqual(["webhook.test"]);
      expect([...res.body.data.eventKeys].sort()).toEqual([...EVENT_KEYS].sort());
      for (const e of events) expect(ajv.validate(e.schema, e.example), e.key).toBe(true);
    }
  });
});
