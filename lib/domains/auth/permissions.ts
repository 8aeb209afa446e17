// The one table of what each member role may do (docs/members.md "Roles and permissions"). Every dashboard
// page, server action and app/api/dashboard handler names one permission of this table
// (lib/dashboard/guard.ts checks it on each request); test/dashboard-permissions.test.ts
// walks all of them for every role. API tokens speak the same vocabulary: a token holds
// every permission of TOKEN_PERMISSIONS (the API-facing part of this table) or a chosen set
// of them, and every route of the public API names the one it needs (docs/tokens.md
// "Restricted tokens").

export const ROLES = ["owner", "admin", "developer", "agent", "billing"] as const;
export type Role = (typeof ROLES)[number];

const ALL = ROLES;

/**
 * Permission -> the roles that hold it. Each entry is one row (or part of one row) of the
 * design's table; the comment names the row.
 */
export const PERMISSIONS = {
  /** Signed in at all: the layout, the home page, the "no access" page. */
  dashboard: ALL,
  /** One's own account: password, two-factor, sessions (docs/security.md). */
  account: ALL,
  /** Inbox: read, reply, assign, notes (agents: on their own senders); the composer and message log. */
  inbox: ["owner", "admin", "agent"],
  /** Contacts, blacklist: read. */
  "contacts.read": ["owner", "admin", "developer", "agent"],
  /** Contacts, blacklist: change. */
  "contacts.write": ["owner", "admin"],
  /** Broadcasts (the contacts-change row). */
  broadcasts: ["owner", "admin"],
  /** Chatbots: change (and their pages). */
  chatbots: ["owner", "admin", "developer"],
  /** Templates: change (and their pages). */
  templates: ["owner", "admin", "developer"],
  /** API tokens and their usage. */
  tokens: ["owner", "admin", "developer"],
  /** Webhooks, their deliveries and recoveries. */
  webhooks: ["owner", "admin", "developer"],
  /** Senders: connect, make default. */
  senders: ["owner", "admin", "developer"],
  /** Support reports: response and resolution times, the inbound heatmap (docs/reports.md). */
  reports: ["owner", "admin"],
  /** Billing, ledger, exports, usage (analytics). */
  billing: ["owner", "admin", "billing"],
  /** Inbox settings: saved replies (every inbox member inserts them) and per-sender auto-assignment (docs/inbox.md). */
  "inbox.settings": ["owner", "admin"],
  /** Automation rules and the business hours they read (docs/automation.md). */
  automations: ["owner", "admin"],
  /** Members, invitations, roles, security settings, audit log (admins: not owners, see members/service.ts). */
  members: ["owner", "admin"],
  /** The audit log: read and export (the same row as members; docs/security.md "Audit log"). */
  audit: ["owner", "admin"],
  /** Send messages: the composer's row (the API's sends, orders and the media they attach). */
  "messages.send": ["owner", "admin", "agent"],
  /** Read messages: the message log's row (the API's message reports, orders, media downloads). */
  "messages.read": ["owner", "admin", "agent"],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

export const isPermission = (value: unknown): value is Permission =>
  typeof value === "string" && Object.hasOwn(PERMISSIONS, value);

export function roleHas(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

/** Every permission a role holds (the navigation shows only these pages). */
export function permissionsOf(role: Role): Permission[] {
  return PERMISSION_NAMES.filter((permission) => roleHas(role, permission));
}

/**
 * The permissions an API token may hold: the part of the table the public API's routes need
 * (each route of lib/api/route-table.ts names one). A token holds all of them (global and
 * number-scoped tokens as they always were) or a chosen set (a restricted token).
 */
export const TOKEN_PERMISSIONS = [
  "messages.send",
  "messages.read",
  "inbox",
  "templates",
  "contacts.read",
  "contacts.write",
  "broadcasts",
  "chatbots",
  "webhooks",
  "senders",
  "billing",
  "reports",
  "audit",
  "automations",
] as const satisfies readonly Permission[];
export type TokenPermission = (typeof TOKEN_PERMISSIONS)[number];

/** A token's permissions: every one ("all", what global and number-scoped tokens always had) or a chosen set. */
export type TokenPermissions = "all" | readonly TokenPermission[];

/** How "all" is stored in ApiToken.permissions (the column's default, so every older token holds it). */
export const ALL_PERMISSIONS_STORED = "*";

/** The stored column as a set: "*" is all; a name the vocabulary no longer has grants nothing. */
export function tokenPermissionsFrom(stored: readonly string[]): TokenPermissions {
  if (stored.includes(ALL_PERMISSIONS_STORED)) return "all";
  return TOKEN_PERMISSIONS.filter((permission) => stored.includes(permission));
}

/** The set as the column stores it (in the vocabulary's order). */
export function storedTokenPermissions(permissions: TokenPermissions): string[] {
  if (permissions === "all") return [ALL_PERMISSIONS_STORED];
  return TOKEN_PERMISSIONS.filter((permission) => permissions.includes(permission));
}

export function tokenHolds(permissions: TokenPermissions, permission: TokenPermission): boolean {
  return permissions === "all" || permissions.includes(permission);
}

/** What a token permission allows on the API, shown beside its checkbox (docs/tokens.md). */
export const TOKEN_PERMISSION_SUMMARY: Record<TokenPermission, string> = {
  "messages.send": "Send messages and orders, upload and delete the media they attach",
  "messages.read": "Read message reports, orders and media",
  inbox: "Read and answer conversations, their messages and notes",
  templates: "List, read, create and sync templates",
  "contacts.read": "Read contact books, contacts, custom fields and the blacklist",
  "contacts.write": "Change contact books, contacts, custom fields and the blacklist",
  broadcasts: "Create, start, pause and read broadcasts",
  chatbots: "Create, change, test and read chatbots",
  webhooks: "Manage webhooks, their deliveries and recoveries",
  senders: "List, connect and remove senders; pick the default",
  billing: "Read billing records, the billing history, delivery and template analytics",
  reports: "Read the support reports (response and resolution times, the inbound heatmap)",
  audit: "Read the audit log",
  automations: "Create, change and read automation rules, their runs and the business hours",
};

/** Roles limited to some senders when the member is (the others always see every sender). */
export const SENDER_LIMITED_ROLES: readonly Role[] = ["agent"];

/** What a role is for, shown beside it on the members page. */
export const ROLE_SUMMARY: Record<Role, string> = {
  owner: "Everything, including members and billing; at least one owner always remains",
  admin: "Everything except changing or removing owners",
  developer: "API tokens, webhooks, senders, chatbots and templates; reads contacts",
  agent: "The inbox (optionally only some senders) and reading contacts",
  billing: "Billing, the ledger, exports and usage",
};

/** Where a role lands after signing in (owners, admins and developers: once the checklist is done). */
export const ROLE_HOME: Record<Role, string> = {
  owner: "/billing",
  admin: "/billing",
  developer: "/tokens",
  agent: "/inbox",
  billing: "/billing",
};
