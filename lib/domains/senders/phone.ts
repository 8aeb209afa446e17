// The one phone number parser (docs/messaging.md "Phone numbers"): every number a customer
// types, on every path (the API, the dashboard, the operator CLI, a contact upload), is parsed
// here with libphonenumber-js and stored as E.164. A number must be international: written
// with "+" and its country code, or typed nationally with a country picked in the form. A
// number that is not a possible number of its country is refused with a message saying why,
// never reinterpreted: "555 000 1234" is not silently Brazil's +55 50001234.
// No database code here, so input schemas (the API's, the CLI's) can use it without loading the
// Prisma client.
import { AsYouType, type CountryCode, getCountries, parsePhoneNumberFromString } from "libphonenumber-js/max";
import { z } from "zod";

export const E164 = /^\+[1-9]\d{6,14}$/;

export type PhoneParse = { ok: true; e164: string } | { ok: false; message: string };

export type PhoneParseOptions = {
  /** A country picked in the form (ISO 3166 alpha-2, like "US"): a number without "+" is national to it. */
  country?: string | null;
  /**
   * The provider's own form (POST /messages, /{phoneNumberId}/messages): digits without "+"
   * already carry the country code ("14155550177"). Still checked, never guessed.
   */
  digitsAreInternational?: boolean;
  /** The form offers a country to pick (the senders form and API, the Messages composer): the refusal says so. */
  countryPicker?: boolean;
};

/** What to type, in every refusal (docs/messaging.md "Phone numbers"). */
const EXAMPLE = "like +1 415 555 0123";

const COUNTRIES = new Set<string>(getCountries());

const shown = (raw: string) => (raw.length > 40 ? `${raw.slice(0, 40)}…` : raw);

/** Parses what a person typed into E.164, or says why it is not a number we can send to. */
export function parsePhone(input: unknown, options: PhoneParseOptions = {}): PhoneParse {
  const raw = typeof input === "number" ? String(input) : typeof input === "string" ? input.trim() : "";
  if (!raw) return { ok: false, message: `Enter a phone number with + and its country code, ${EXAMPLE}` };
  if (raw.length > 40 || !/^[+\d\s().\-/]+$/.test(raw)) {
    return {
      ok: false,
      message: `"${shown(raw)}" is not a phone number: type digits, with + and the country code, ${EXAMPLE}`,
    };
  }
  const country = options.country?.trim().toUpperCase() || undefined;
  if (country && !COUNTRIES.has(country)) return { ok: false, message: `"${country}" is not a country we know` };
  let text = raw;
  if (!raw.startsWith("+")) {
    if (raw.startsWith("00")) text = `+${raw.slice(2)}`;
    else if (options.digitsAreInternational && !country) text = `+${raw}`;
    else if (!country) {
      return {
        ok: false,
        message: `"${shown(raw)}" is not an international number: start it with + and the country code (${EXAMPLE})${options.countryPicker ? ", or pick its country" : ""}`,
      };
    }
  }
  const parsed = parsePhoneNumberFromString(text, text.startsWith("+") ? undefined : (country as CountryCode));
  if (!parsed?.isPossible()) return { ok: false, message: notPossible(raw, text, country) };
  return { ok: true, e164: parsed.number };
}

/**
 * Why a number was refused: its country code unknown, or its length wrong for that country;
 * said about what the person typed (a "+", a "00", or digits read as starting with the
 * country code) and with what to type instead.
 */
function notPossible(raw: string, text: string, country: string | undefined): string {
  if (!text.startsWith("+")) return `"${shown(raw)}" is not a valid phone number in ${country}: check the digits`;
  const typing = new AsYouType();
  typing.input(text);
  const code = typing.getCallingCode();
  const typed = raw.startsWith("+") ? "+" : raw.startsWith("00") ? "00" : "";
  if (!code) {
    if (typed === "+")
      return `"${shown(raw)}" does not start with a known country code after the +: type one after it, ${EXAMPLE}`;
    if (typed === "00") {
      return `"${shown(raw)}" does not start with a known country code after the 00: type + and the country code, ${EXAMPLE}`;
    }
    return `"${shown(raw)}" does not start with a known country code: type + and the country code first, ${EXAMPLE}`;
  }
  const named = typing.getCountry();
  const read = `country code +${code}${named ? ` (${named})` : ""}`;
  if (typed === "") {
    return `"${shown(raw)}" is not a valid phone number for ${read}, read from its first digits: type + and the country code first, ${EXAMPLE}`;
  }
  return `"${shown(raw)}" is not a valid phone number for ${read}: check the digits`;
}

/**
 * A look-up key for a number someone is searching for (a filter, a sender named in a path or
 * query), never a number to write or send to: separators dropped and a "+" a query string
 * decoded as a space restored, so "+1 555…" and " 1555…" find +1555…. Writes use parsePhone.
 */
export function normalizePhone(raw: string): string {
  const parsed = parsePhone(raw, { digitsAreInternational: true });
  if (parsed.ok) return parsed.e164;
  const digits = raw.replace(/[\s().-]/g, "").replace(/^\+/, "");
  return `+${digits}`;
}

/**
 * The zod field of a phone number a person types: parsed to E.164, or refused with parsePhone's
 * message (the API's VALIDATION_FAILED names the field, a form shows it under the field).
 */
export function phoneField(options: PhoneParseOptions = {}) {
  return z.union([z.string(), z.number()]).transform((value, ctx) => {
    const parsed = parsePhone(value, options);
    if (parsed.ok) return parsed.e164;
    ctx.addIssue({ code: "custom", message: parsed.message });
    return z.NEVER;
  });
}
