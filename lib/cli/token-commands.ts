// token:create, token:revoke and token:rotate (docs/operator-cli.md).
import { db } from "@/lib/db";
import { tokenPermissionsFrom } from "@/lib/domains/auth/permissions";
import { operatorPrincipal } from "@/lib/domains/auth/principal";
import { issueToken, revokeToken, rotateToken } from "@/lib/domains/tokens/service";
import { defineCommand } from "./command";
import { CliInputError } from "./input-error";
import { requireCustomer } from "./require-customer";
import { TokenCreateArgs, TokenRevokeArgs, TokenRotateArgs } from "./schemas";

export const tokenCreate = defineCommand({
  options: {
    customer: { type: "string" },
    sender: { type: "string" },
    name: { type: "string" },
    "expires-in-days": { type: "string" },
    permissions: { type: "string" },
  },
  schema: TokenCreateArgs,
  run: async (input) => {
    const { id: customerId } = await requireCustomer(input.customer);
    let sender: { id: string; phoneNumber: string } | null = null;
    if (input.sender) {
      sender = await db.sender.findFirst({
        where: { customerId, phoneNumber: input.sender },
        select: { id: true, phoneNumber: true },
      });
      if (!sender) throw new CliInputError("--sender", `${input.sender} is not a sender of customer ${customerId}`);
    }
    const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
    const { token, record } = await issueToken(
      {
        customerId,
        name: input.name,
        senderId: sender?.id ?? null,
        expiresAt,
        permissions: input.permissions,
      },
      operatorPrincipal(customerId),
    );
    const scope = sender ? `number-scoped to ${sender.phoneNumber}` : "global";
    const permissions = tokenPermissionsFrom(record.permissions);
    return {
      json: {
        tokenId: record.id,
        token,
        prefix: record.prefix,
        name: record.name,
        customerId,
        senderId: sender?.id ?? null,
        senderPhoneNumber: sender?.phoneNumber ?? null,
        scope: sender ? "number" : "global",
        permissions,
        expiresAt: record.expiresAt?.toISOString() ?? null,
      },
      text: [
        `Created ${scope} token "${record.name}" (${record.id}) with ${
          permissions === "all" ? "all permissions" : `only ${permissions.join(", ")}`
        }.`,
        "Copy it now; it is not shown again:",
        "",
        `  ${token}`,
        "",
      ].join("\n"),
    };
  },
});

export const tokenRevoke = defineCommand({
  positionals: ["TOKEN_ID"],
  schema: TokenRevokeArgs,
  run: async ({ tokenId }) => {
    // An operator acts for whichever customer owns the token.
    const owner = await db.apiToken.findUnique({
      where: { id: tokenId },
      select: { customerId: true, revokedAt: true },
    });
    if (!owner?.customerId) throw new CliInputError("TOKEN_ID", `no customer token with id ${tokenId}`);
    const token = await revokeToken(operatorPrincipal(owner.customerId), tokenId);
    return {
      json: {
        tokenId: token.id,
        customerId: token.customerId,
        revokedAt: token.revokedAt?.toISOString() ?? null,
        alreadyRevoked: owner.revokedAt !== null,
      },
      text: owner.revokedAt ? `Token ${token.id} was already revoked.` : `Revoked token ${token.id}.`,
    };
  },
});

export const tokenRotate = defineCommand({
  positionals: ["TOKEN_ID"],
  options: { "grace-hours": { type: "string" } },
  schema: TokenRotateArgs,
  run: async ({ tokenId, graceHours }) => {
    const owner = await db.apiToken.findUnique({ where: { id: tokenId }, select: { customerId: true } });
    if (!owner?.customerId) throw new CliInputError("TOKEN_ID", `no customer token with id ${tokenId}`);
    const { token, successor, previous } = await rotateToken(operatorPrincipal(owner.customerId), tokenId, {
      graceHours,
    });
    const oldStops = previous.expiresAt?.toISOString() ?? null;
    return {
      json: {
        tokenId: successor.id,
        token,
        prefix: successor.prefix,
        name: successor.name,
        customerId: successor.customerId,
        senderId: successor.senderId,
        expiresAt: successor.expiresAt?.toISOString() ?? null,
        previousTokenId: previous.id,
        previousExpiresAt: oldStops,
      },
      text: [
        `Rotated token "${successor.name}": successor ${successor.id}; ${previous.id} stops working at ${oldStops}.`,
        "Copy the new token now; it is not shown again:",
        "",
        `  ${token}`,
        "",
      ].join("\n"),
    };
  },
});
