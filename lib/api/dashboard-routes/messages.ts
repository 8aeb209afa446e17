// The message log page's routes only the dashboard calls (session: "only",
// lib/api/route-definition.ts): the log of the page's sender, polled, and the composer's send.
// The public API's report (GET /reports/messages) needs messages.read and answers the public
// row; the log is the inbox's (agents see their senders only) and shows the text too.
import { sendFromComposer } from "@/lib/domains/messaging/composer";
import { ComposerBody } from "@/lib/domains/messaging/schemas";
import { listMessageReport, toDashboardMessageRow } from "@/lib/domains/reports/messages";
import { MessageLogQuery } from "@/lib/domains/reports/schemas";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { type AnyRoute, ok, route } from "../route-definition";
import { dashboardOnly } from "./common";

export const messagesDashboardRoutes: AnyRoute[] = [
  route({
    ...dashboardOnly,
    tag: "Messaging",
    method: "GET",
    path: "/messages",
    permission: "inbox",
    summary: "The message log of a sender",
    description:
      "The page's sender (`sender`, else the default one; none when the account has no sender), 25 rows a page, with the report's filters (docs/dashboard.md).",
    query: MessageLogQuery,
    handler: async ({ principal, query }) => {
      const { sender: requested, ...filters } = query;
      const sender = await pageSender(principal, requested);
      const { rows, pagination } = await listMessageReport(principal, sender, filters, "v3");
      return ok("Messages retrieved", { messages: rows.map(toDashboardMessageRow), pagination });
    },
  }),
  route({
    ...dashboardOnly,
    tag: "Messaging",
    method: "POST",
    path: "/messages",
    permission: "inbox",
    summary: "The composer's send",
    description: "A template or a session text from the message log's composer, through the API's send services.",
    body: ComposerBody,
    handler: async ({ principal, body }) => ok("Message sent", { message: await sendFromComposer(principal, body) }),
  }),
];
