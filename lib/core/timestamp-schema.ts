// A timestamp in an answer: the serializers write Date.toISOString(), and the OpenAPI
// document says so (`format: date-time`) so generated clients can type it as a date.
// Output only: it checks nothing more than z.string() at run time.
import { z } from "zod";

/** An ISO 8601 timestamp string in an answer schema (JSON Schema `format: date-time`). */
export const isoTimestamp = () => z.string().meta({ format: "date-time" });
