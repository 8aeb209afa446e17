// Details never hold a secret (docs/security.md "Audit log"). Recorders pass only names,
// ids and flags; this is the net under them: a key that names a secret, or a value that
// looks like one of our tokens or signing secrets, is replaced before the row is written.
const SECRET_KEY =
  /secret|password|passwd|hash|otp|recovery|^token$|tokenvalue|apikey|authorization|cookie|verificationtoken/i;
// A whole API token or signing secret (a token's visible prefix, 4 characters after swb_live_,
// is no secret), or any long unbroken run of key-like characters.
const SECRET_VALUE = /swb_live_[0-9A-Za-z]{12,}|whsec_[A-Za-z0-9+/=]{12,}|^[A-Za-z0-9+/_-]{40,}={0,2}$/;

export const REDACTED = "[redacted]";

export type AuditDetails = { [key: string]: AuditDetailValue };
type AuditDetailValue = string | number | boolean | null | readonly AuditDetailValue[] | AuditDetails;

/** A copy of `details` with secret-looking keys and values replaced by "[redacted]". */
export function redactDetails(details: AuditDetails): AuditDetails {
  return Object.fromEntries(
    Object.entries(details).map(([k, v]) => [k, SECRET_KEY.test(k) ? REDACTED : redactValue(v)]),
  );
}

function redactValue(v: AuditDetailValue): AuditDetailValue {
  if (typeof v === "string") return looksSecret(v) ? REDACTED : v;
  if (Array.isArray(v)) return v.map(redactValue);
  if (v !== null && typeof v === "object") return redactDetails(v as AuditDetails);
  return v;
}

/** A value shaped like an API token, a webhook signing secret or a long random key. */
export function looksSecret(value: string): boolean {
  return SECRET_VALUE.test(value);
}
