"use server";
import { revalidatePath } from "next/cache";
import { type ActionResult, runAction } from "@/lib/dashboard/action-result";
import { requirePermission } from "@/lib/dashboard/guard";
import { createTokenFor } from "@/lib/domains/tokens/create-for-principal";
import { TokenCreateInput, TokenRotateInput } from "@/lib/domains/tokens/schemas";
import { revokeToken, rotateToken } from "@/lib/domains/tokens/service";

export async function createTokenAction(raw: Record<string, string>): Promise<ActionResult<{ token: string }>> {
  const p = await requirePermission("tokens");
  const result = await runAction(async () => {
    const { token } = await createTokenFor(p, TokenCreateInput.parse(raw));
    return { token };
  }, raw);
  if (result.ok) revalidatePath("/tokens");
  return result;
}

export async function revokeTokenAction(tokenId: string): Promise<ActionResult> {
  const p = await requirePermission("tokens");
  const result = await runAction(async () => {
    await revokeToken(p, tokenId);
    return undefined;
  });
  if (result.ok) revalidatePath("/tokens");
  return result;
}

export async function rotateTokenAction(
  tokenId: string,
  raw: Record<string, string>,
): Promise<ActionResult<{ token: string; previousExpiresAt: string | null }>> {
  const p = await requirePermission("tokens");
  const result = await runAction(async () => {
    const { graceHours } = TokenRotateInput.parse(raw);
    const { token, previous } = await rotateToken(p, tokenId, { graceHours });
    return { token, previousExpiresAt: previous.expiresAt?.toISOString() ?? null };
  }, raw);
  if (result.ok) revalidatePath("/tokens");
  return result;
}
