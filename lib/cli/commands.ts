// The operator CLI's command table (docs/operator-cli.md): each command's name, usage line
// and summary, and a loader of its implementation. The help text and an unknown command are
// answered from this table alone; a command's module (its schema, the services it calls,
// the database client) is imported only when that command runs (docs/benchmarks.md
// "Start-up and the operator CLI").
import type { CommandImplementation } from "./command";

export type CommandEntry = {
  name: string;
  /** One line for the usage text, e.g. "--name N [--plan starter|pro]". */
  usage: string;
  summary: string;
  load: () => Promise<CommandImplementation>;
};

export type CliCommand = Omit<CommandEntry, "load"> & CommandImplementation;

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "customer:create",
    usage: "--name N [--plan starter|pro]",
    summary: "Create a customer account",
    load: () => import("./customer-command").then((m) => m.customerCreate),
  },
  {
    name: "customer:list",
    usage: "[--search TEXT] [--limit N]",
    summary:
      "List customers, newest first: id, owners' emails, sender numbers and balance (--search: part of any of them or the name)",
    load: () => import("./customer-command").then((m) => m.customerList),
  },
  {
    name: "sender:add",
    usage: "--customer ID --phone E164 [--phone-number-id ID] [--waba-id ID] [--display-name N] [--default]",
    summary: "Connect a sender phone number (no --phone-number-id: setup incomplete)",
    load: () => import("./sender-commands").then((m) => m.senderAdd),
  },
  {
    name: "sender:default",
    usage: "--customer ID --phone E164",
    summary: "Make one of the customer's senders its default (the others stop being default)",
    load: () => import("./sender-commands").then((m) => m.senderDefault),
  },
  {
    name: "sender:limits",
    usage: "--sender E164 [--throughput N] [--messaging-limit N|unlimited]",
    summary:
      "Show or set a sender's messages per second (up to 1000) and its business account's messaging limit (unique contacts per 24 h)",
    load: () => import("./sender-limits-command").then((m) => m.senderLimitsCommand),
  },
  {
    name: "credit:add",
    usage: "--customer ID|EMAIL|E164 --amount N [--note T]",
    summary:
      "Add a prepaid credit to a customer's ledger (the customer by id, a member's email or a sender number); prints the new balance",
    load: () => import("./credit-command").then((m) => m.creditAdd),
  },
  {
    name: "token:create",
    usage: "--customer ID [--sender E164] [--name N] [--expires-in-days D]",
    summary: "Issue an API token (global, or bound to one sender); the token is printed once",
    load: () => import("./token-commands").then((m) => m.tokenCreate),
  },
  {
    name: "token:revoke",
    usage: "TOKEN_ID",
    summary: "Revoke an API token (revoking twice is harmless)",
    load: () => import("./token-commands").then((m) => m.tokenRevoke),
  },
  {
    name: "token:rotate",
    usage: "TOKEN_ID [--grace-hours N]",
    summary: "Issue a successor (printed once); the old token keeps working for N hours (default 24, at most 168)",
    load: () => import("./token-commands").then((m) => m.tokenRotate),
  },
  {
    name: "user:create",
    usage:
      "--customer ID --email E --password P [--name N] [--role owner|admin|developer|agent|billing] [--senders E164,...]",
    summary: "Create a member of a customer account (default role owner; --senders limits an agent to those senders)",
    load: () => import("./user-command").then((m) => m.userCreate),
  },
  {
    name: "user:2fa-off",
    usage: "--email E",
    summary:
      "Turn off two-factor of a member who lost their app and recovery codes (their sessions end; they are emailed; docs/security.md)",
    load: () => import("./two-factor-command").then((m) => m.userTwoFactorOff),
  },
  {
    name: "mail:list",
    usage: "[--to EMAIL] [--limit N]",
    summary: "List queued and sent emails, newest first, with the links of those still kept (docs/email.md)",
    load: () => import("./mail-command").then((m) => m.mailListCommand),
  },
  {
    name: "rates:set",
    usage: "--category C --rate R [--customer ID] [--currency USD]",
    summary: "Set the rate of a pricing category (global, or a customer's override)",
    load: () => import("./rates-command").then((m) => m.ratesSet),
  },
  {
    name: "demo:seed",
    usage: "[--billing-records N]",
    summary: "Create or complete the demo account (idempotent; default 50000 billing records)",
    load: () => import("./demo-command").then((m) => m.demoSeedCommand),
  },
  {
    name: "callbacks:dead",
    usage: "[--limit N]",
    summary: "List provider callbacks that failed to apply after every retry (oldest first)",
    load: () => import("./callbacks-dead-command").then((m) => m.callbacksDeadCommand),
  },
  {
    name: "callbacks:retry",
    usage: "CALLBACK_ID | --all",
    summary: "Apply dead provider callbacks again (one, or every one listed by callbacks:dead)",
    load: () => import("./callbacks-retry-command").then((m) => m.callbacksRetryCommand),
  },
  {
    name: "simulate:inbound",
    usage:
      "--sender E164 --from E164 (--text T [--context WAMID] | --media FILE [--caption T] [--voice] | --button-id ID --button-title T --context WAMID | --list-row-id ID --list-row-title T [--list-row-description D] --context WAMID | --reaction EMOJI --context WAMID) [--name N]",
    summary:
      "A contact writes to a sender, sends a file, taps a reply button, picks a list row or reacts (a signed inbound callback through the provider endpoint; a file is fetched and kept)",
    load: () => import("./simulate-command").then((m) => m.simulateInboundCommand),
  },
  {
    name: "media:gc",
    usage: "",
    summary: "Delete the media files past MEDIA_RETENTION_DAYS now (the hourly pass does it too; docs/media.md)",
    load: () => import("./media-command").then((m) => m.mediaGcCommand),
  },
];

/** The command of that name with its implementation loaded, or undefined. */
export async function loadCommand(name: string): Promise<CliCommand | undefined> {
  const entry = COMMANDS.find((c) => c.name === name);
  if (!entry) return undefined;
  const { load, ...described } = entry;
  return { ...described, ...(await load()) };
}
