// What a provider error code means for the business, in words a person acts on: the
// provider's own title (CODE_TITLES) and what to do about it. The broadcast page groups
// failed recipients by code with this (docs/broadcasts.md "For the dashboard").
import {
  CODE_TITLES,
  MARKETING_CAP,
  MESSAGING_LIMIT_HIT,
  PAIR_RATE_LIMIT,
  TEMPLATE_NOT_FOUND,
  THROUGHPUT_EXCEEDED,
  UNDELIVERABLE,
} from "./error-codes";

const WHAT_TO_DO: Record<number, string> = {
  [UNDELIVERABLE]:
    "The number is not on the network, or the provider could not reach it; check the number with the contact.",
  [MARKETING_CAP]:
    "The provider holds back marketing messages to users who got many lately; not retried within 24 hours.",
  [MESSAGING_LIMIT_HIT]: "The business account reached its messaging limit of unique contacts per 24 hours (its tier).",
  [PAIR_RATE_LIMIT]: "Too many messages to this user in a short time; the service spaces them.",
  [THROUGHPUT_EXCEEDED]: "The number's messages per second were exceeded; the service retries these itself.",
  [TEMPLATE_NOT_FOUND]: "The template (or its language) no longer exists at the provider.",
  131047: "Only templates may be sent outside the 24-hour customer service window.",
  131050: "The contact opted out of this business's marketing messages.",
  131031: "The provider locked the business account; see its notices before sending again.",
  132000: "The template's parameters no longer match it.",
  131008: "A template parameter was empty.",
};

export type ErrorMeaning = { title: string; whatToDo: string | null };

/** The provider's title for a code and what it means to do; an unknown or missing code says so. */
export function providerErrorMeaning(code: number | null): ErrorMeaning {
  if (code === null) return { title: "No error code reported", whatToDo: null };
  return { title: CODE_TITLES[code] ?? `Provider error ${code}`, whatToDo: WHAT_TO_DO[code] ?? null };
}
