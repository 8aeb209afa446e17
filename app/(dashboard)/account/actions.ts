"use server";
import { z } from "zod";
// The account page (docs/security.md): one's own password, two-factor and sessions. Every
// member may use it (the "account" permission); the services act only on the member asking.
import { defineAction } from "@/lib/dashboard/define-action";
import { changePassword } from "@/lib/domains/security/passwords";
import { ChangePasswordInput, SecondFactorCode, SessionIdInput } from "@/lib/domains/security/schemas";
import { endMyOtherSessions, endMySession } from "@/lib/domains/security/sessions";
import {
  beginTwoFactorSetup,
  confirmTwoFactor,
  disableTwoFactor,
  regenerateRecoveryCodes,
} from "@/lib/domains/security/two-factor";

export const changePasswordAction = defineAction({
  permission: "account",
  schema: ChangePasswordInput,
  run: async ({ principal, input }) => changePassword(principal, input.currentPassword, input.newPassword),
  revalidate: "/account",
});

export const beginTwoFactorAction = defineAction({
  permission: "account",
  schema: z.object({}),
  run: async ({ principal }) => beginTwoFactorSetup(principal),
});

export const confirmTwoFactorAction = defineAction({
  permission: "account",
  schema: SecondFactorCode,
  run: async ({ principal, input }) => ({ recoveryCodes: await confirmTwoFactor(principal, input.code) }),
});

export const disableTwoFactorAction = defineAction({
  permission: "account",
  schema: SecondFactorCode,
  run: async ({ principal, input }) => disableTwoFactor(principal, input.code),
  revalidate: "/account",
});

export const regenerateRecoveryCodesAction = defineAction({
  permission: "account",
  schema: SecondFactorCode,
  run: async ({ principal, input }) => ({ recoveryCodes: await regenerateRecoveryCodes(principal, input.code) }),
});

export const endSessionAction = defineAction({
  permission: "account",
  schema: SessionIdInput,
  run: async ({ principal, input }) => endMySession(principal, input.sessionId),
  revalidate: "/account",
});

export const endOtherSessionsAction = defineAction({
  permission: "account",
  schema: z.object({}),
  run: async ({ principal }) => ({ ended: await endMyOtherSessions(principal) }),
  revalidate: "/account",
});
