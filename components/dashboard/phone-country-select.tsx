"use client";
// The country of a phone number typed without "+" (lib/domains/senders/phone.ts parses it with
// the one parser): by default none, and a number must then start with + and its country code.
import { getCountries, getCountryCallingCode } from "libphonenumber-js/min";
import { useEffect, useState } from "react";
import { input, label } from "@/components/ui/classes";

export function PhoneCountrySelect({
  id,
  name = "country",
  value,
  onChange,
}: {
  id: string;
  name?: string;
  /** Controlled when given; else the form reads it by name. */
  value?: string;
  onChange?: (country: string) => void;
}) {
  // Country names come from the browser's Intl after hydration: the server's ICU names some
  // regions differently (and sorts them differently), which would be a hydration mismatch.
  const [options, setOptions] = useState<{ code: string; text: string }[]>([]);
  useEffect(() => {
    const names = new Intl.DisplayNames(["en"], { type: "region" });
    setOptions(
      getCountries()
        .map((code) => ({ code, text: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
        .sort((a, b) => a.text.localeCompare(b.text)),
    );
  }, []);
  return (
    <div>
      <label htmlFor={id} className={label}>
        Country (for a number without +)
      </label>
      <select
        id={id}
        name={name}
        className={input}
        {...(value === undefined ? { defaultValue: "" } : { value, onChange: (e) => onChange?.(e.target.value) })}
      >
        <option value="">None: the number starts with +</option>
        {options.map((o) => (
          <option key={o.code} value={o.code}>
            {o.text}
          </option>
        ))}
      </select>
    </div>
  );
}
