// Account-security inputs (docs/security.md): one schema each, shared by the forms and the actions.
import { z } from "zod";

const NewPassword = z.string().min(10, "Use at least 10 characters").max(200);

export const ResetRequestInput = z.object({
  email: z.string().trim().toLowerCase().email("Enter a valid email address").max(320),
});

export const ResetPasswordInput = z.object({
  token: z.string().max(200),
  password: NewPassword,
});

export const ChangePasswordInput = z.object({
  currentPassword: z.string().min(1, "Enter your current password").max(200),
  newPassword: NewPassword,
});

/** A 6-digit TOTP code or a recovery code (xxxxx-xxxxx). */
export const SecondFactorCode = z.object({
  code: z.string().trim().min(6, "Enter the code").max(20),
});

export const RequireTwoFactorInput = z.object({ required: z.boolean() });

export const SessionIdInput = z.object({ sessionId: z.string().min(1).max(100) });
