// The audited actions (docs/security.md "Audit log"): dotted names, one list, so the API's
// `action` filter, the dashboard's filter and the recorders agree on the spelling.
export const AUDIT_ACTIONS = [
  "member.signed_in",
  "member.sign_in_failed",
  "member.invited",
  "member.joined",
  "member.role_changed",
  "member.removed",
  "member.password_changed",
  "member.password_reset",
  "member.2fa_enabled",
  "member.2fa_disabled",
  "session.revoked",
  "token.created",
  "token.rotated",
  "token.revoked",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "webhook.disabled",
  "sender.added",
  "sender.default_changed",
  "chatbot.created",
  "chatbot.updated",
  "chatbot.activated",
  "chatbot.deactivated",
  "broadcast.started",
  "broadcast.cancelled",
  "broadcast.retried",
  "blacklist.added",
  "blacklist.removed",
  "contact_book.deleted",
  "export.downloaded",
  "automation.created",
  "automation.updated",
  "automation.deleted",
  "business_hours.updated",
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** What an entry is about: a type and the id the API or CLI shows for it. */
export type AuditTarget = { type: string; uid: string };
