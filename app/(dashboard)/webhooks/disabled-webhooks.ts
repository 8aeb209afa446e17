// The destinations the service disabled (disabledAt set: 5 days of failures or 410 Gone),
// picked from public webhooks for the banner (disabled-banner.tsx). A plain module, so the
// server pages can call it.
export type DisabledWebhook = { uid: string; name: string; disabledAt: string; disabledReason: string | null };

export function disabledOf(
  webhooks: { uid: string; name: string; disabledAt: string | null; disabledReason: string | null }[],
): DisabledWebhook[] {
  return webhooks.flatMap((w) =>
    w.disabledAt ? [{ uid: w.uid, name: w.name, disabledAt: w.disabledAt, disabledReason: w.disabledReason }] : [],
  );
}
