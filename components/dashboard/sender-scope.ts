// Which dashboard pages act on one sender. On those, no ?sender= means the account's
// default sender (lib/domains/senders/dashboard-scope.ts pageSender), not "all senders"; the
// header's switcher and the pages' SenderInForce line say so.
// See docs/dashboard.md.

/**
 * The pages that work on one sender at a time (a chatbot's own page shows its own sender,
 * whatever the header says, so it is not one of them).
 */
const SENDER_SCOPED_PAGES = [
  /^\/(analytics|blacklist|messages|webhooks)(\/|$)/,
  /^\/chatbots(\/new)?\/?$/,
  /^\/broadcasts\/new\/?$/,
];

export const isSenderScopedPage = (pathname: string) => SENDER_SCOPED_PAGES.some((re) => re.test(pathname));

/** The switcher's "no ?sender=" option: what that choice means on this page. */
export function noSenderChoiceLabel(pathname: string, defaultSender: string | null): string {
  if (!isSenderScopedPage(pathname)) return "All senders";
  return defaultSender ? `Default sender: ${defaultSender}` : "Default sender";
}
