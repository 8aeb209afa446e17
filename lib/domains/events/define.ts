// An event is defined by the domain that emits it (docs/event-pipeline.md "Events"): its type,
// a description for the catalog, the zod schema of its `data` and an example of that data.
// The catalog (lib/domains/webhooks/catalog.ts) is composed from the definitions; what GET
// /webhooks/events and the OpenAPI document's `webhooks` serve is the envelope below around
// the `data` schema. A definition builds its emit input (`of`), so a body that does not fit
// the schema does not compile (lib/domains/events/define.test.ts).
import { z } from "zod";
import type { EventInput } from "./emit";

/** An ISO 8601 timestamp in an event's schema. */
export const EventTime = z.string().describe("ISO 8601 timestamp (UTC)");

/** The time every example shows. */
export const EXAMPLE_AT = "2026-11-23T10:15:00.000Z";

export type EventDefinition<T extends string = string, S extends z.ZodType = z.ZodType> = {
  type: T;
  description: string;
  /** The schema of `data`. */
  schema: S;
  /** An example of `data` (the catalog's example wraps it in the envelope). */
  example: z.output<S>;
  /** The emit input of one such event: `data` must fit the schema (the compiler checks it). */
  of(input: Omit<EventInput, "type" | "data"> & { data: z.output<S> }): EventInput;
};

export function defineEvent<const T extends string, S extends z.ZodType>(definition: {
  type: T;
  description: string;
  schema: S;
  example: z.output<S>;
}): EventDefinition<T, S> {
  return { ...definition, of: (input) => ({ ...input, type: definition.type }) as EventInput };
}

/** The Standard Webhooks body every destination receives (emit.ts buildPayload) around `data`. */
export function envelopeSchema(type: string, data: z.ZodType) {
  return z.object({
    id: z.string().describe("Event id (evt_…)"),
    type: z.literal(type),
    createdAt: EventTime,
    senderId: z.string().describe("The sender's phone number"),
    phoneNumberId: z.string().nullable(),
    data,
  });
}

/** A delivered body around an example's `data`. */
export function envelopeExample(type: string, data: unknown): Record<string, unknown> {
  return {
    id: "evt_01jexample000000000000000",
    type,
    createdAt: EXAMPLE_AT,
    senderId: "+15550100001",
    phoneNumberId: "104857600000001",
    data,
  };
}
