// How a message was sent (Message.sendRoute, BillingRecord.sendRoute): one of this service's send
// routes, or external, a message sent outside Switchboard from one of the account's numbers that
// is recorded from its statuses (docs/event-pipeline.md "Statuses for messages we did not send").

export const SEND_ROUTES = ["send", "chat", "messages", "orders", "chatbot", "automation"] as const;
export type SendRoute = (typeof SEND_ROUTES)[number];
/** The routes a recorded message or billing record may show (the reports' and billing's filter). */
export const RECORDED_SEND_ROUTES = [...SEND_ROUTES, "external"] as const;
