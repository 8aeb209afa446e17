"use server";
import { z } from "zod";
import { defineAction, RecordId } from "@/lib/dashboard/define-action";
import { createTokenFor } from "@/lib/domains/tokens/create-for-principal";
import { TokenCreateInput, TokenRotateInput } from "@/lib/domains/tokens/schemas";
import { revokeToken, rotateToken } from "@/lib/domains/tokens/service";

export const createTokenAction = defineAction({
  permission: "tokens",
  schema: TokenCreateInput,
  run: async ({ principal, input }) => ({ token: (await createTokenFor(principal, input)).token }),
  revalidate: "/tokens",
});

export const revokeTokenAction = defineAction({
  permission: "tokens",
  schema: z.object({ tokenId: RecordId }),
  run: async ({ principal, input }) => {
    await revokeToken(principal, input.tokenId);
  },
  revalidate: "/tokens",
});

export const rotateTokenAction = defineAction({
  permission: "tokens",
  schema: TokenRotateInput.extend({ tokenId: RecordId }),
  run: async ({ principal, input }) => {
    const { token, previous } = await rotateToken(principal, input.tokenId, { graceHours: input.graceHours });
    return { token, previousExpiresAt: previous.expiresAt?.toISOString() ?? null };
  },
  revalidate: "/tokens",
});
