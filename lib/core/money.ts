// Money said to people: the dashboard, the operator CLI and emails (not the API, whose
// amounts the contract fixes as plain numbers). One format everywhere, the currency's code
// before the figure, in the currency's minor units as Intl knows them (USD 2 decimals, JPY
// none, KWD 3): "USD 310.00", "JPY 1,500", never "310.0000 USD" beside "USD 247.125".
// docs/dashboard.md "Money".

/**
 * - `amount`: a balance, a total, a cost, a credit: rounded to the minor unit.
 * - `exact`: one message's price or one ledger entry, which providers price in fractions of
 *   the minor unit (0.0147): at least the minor units and every stored digit (up to 6), so
 *   nothing billed is hidden.
 */
export type MoneyPrecision = "amount" | "exact";

const MAX_STORED_DECIMALS = 6;
const formatters = new Map<string, Intl.NumberFormat>();

/** The currency's minor units per Intl (USD 2, JPY 0, KWD 3; 2 for a code Intl does not know). */
export function minorUnits(currency: string): number {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

function formatterFor(currency: string, precision: MoneyPrecision): Intl.NumberFormat {
  const key = `${currency}|${precision}`;
  let f = formatters.get(key);
  if (!f) {
    const minor = minorUnits(currency);
    f = new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      currencyDisplay: "code",
      minimumFractionDigits: minor,
      maximumFractionDigits: precision === "exact" ? Math.max(minor, MAX_STORED_DECIMALS) : minor,
    });
    formatters.set(key, f);
  }
  return f;
}

/** "USD 310.00"; a Prisma Decimal or a numeric string is read as its number. */
export function formatMoney(
  amount: number | string | { toString(): string },
  currency: string,
  precision: MoneyPrecision = "amount",
): string {
  const n = typeof amount === "number" ? amount : Number(amount.toString());
  // Intl puts a no-break space between the code and the figure: a plain one reads (and
  // copies, and greps) the same in a terminal, an email and a page.
  return formatterFor(currency.toUpperCase(), precision)
    .format(n)
    .replace(/\u00a0/g, " ");
}
