// The bounds of a sender's limits (docs/messaging.md "Sender limits"), without the database
// code of ./limits.ts: the operator CLI's input schema checks them before connecting.

/** The most an operator may set: the provider's upgraded numbers (docs/api/limits.md "Provider limits"). */
export const MAX_THROUGHPUT_PER_SECOND = 1000;
