/**
 * The key label names are compared by (Label.nameKey): the same fold for every write and every
 * look-up. In lib/core, below the domains, so a domain that only compares names (SLA policies,
 * which conversations import) need not import the labels domain, which imports conversations.
 */
export const labelKey = (name: string) => name.trim().toLowerCase();
