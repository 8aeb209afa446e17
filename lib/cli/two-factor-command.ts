// user:2fa-off (docs/operator-cli.md, docs/security.md "Two-factor authentication"): the
// operator turns off two-factor of a member who lost their app and recovery codes.
import { operatorDisableTwoFactor } from "@/lib/domains/security/two-factor";
import { defineCommand } from "./command";
import { UserEmailArgs } from "./schemas";

export const userTwoFactorOff = defineCommand({
  options: { email: { type: "string" } },
  schema: UserEmailArgs,
  run: async (input) => {
    const turnedOff = await operatorDisableTwoFactor(input.email);
    return {
      json: { email: input.email, turnedOff },
      text: turnedOff
        ? `Two-factor turned off for ${input.email}; their sessions ended and they were emailed`
        : `Two-factor was not on for ${input.email}: nothing changed`,
    };
  },
});
