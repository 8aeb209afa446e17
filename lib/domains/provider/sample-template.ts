// The sample template the provider gives every new business account, already approved
// (Meta's `hello_world`): what lets a new account send its first message before any
// template of its own passes review (docs/messaging.md "Provider and simulator"). The simulator lists it
// for every business account, with an id derived from the account's id so that every
// process of the app (front server, Next) answers the same.
import { createHash } from "node:crypto";
import type { ProviderTemplate } from "./types";

export const SAMPLE_TEMPLATE_NAME = "hello_world";

export function sampleTemplate(wabaId: string): ProviderTemplate {
  const digits = BigInt(`0x${createHash("sha256").update(`sample:${wabaId}`).digest("hex").slice(0, 15)}`)
    .toString()
    .padStart(15, "0")
    .slice(-14);
  return {
    id: `1${digits}`,
    name: SAMPLE_TEMPLATE_NAME,
    language: "en_US",
    category: "UTILITY",
    status: "APPROVED",
    components: [
      { type: "HEADER", format: "TEXT", text: "Hello World" },
      {
        type: "BODY",
        text: "Welcome and congratulations!! This message demonstrates your ability to send a message notification from the Cloud API. Thank you for taking the time to test with us.",
      },
      { type: "FOOTER", text: "Business Platform sample message" },
    ],
  };
}
