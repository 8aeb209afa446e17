// The operator CLI's command table (README "Operator CLI"). Each command parses
// its flags, calls a service, and returns one JSON object plus a human summary.
import { setRate } from "@/lib/billing/rate-card";
import { simulateInbound } from "@/lib/conversations/simulate-inbound";
import { createCustomer, findCustomer } from "@/lib/customers/service";
import { db } from "@/lib/db";
import { addSender, setDefaultSender } from "@/lib/senders/admin";
import { issueToken, revokeToken, rotateToken } from "@/lib/tokens/service";
import { createUser } from "@/lib/users/service";
import { callbacksDeadCommand, callbacksRetryCommand } from "./callbacks-command";
import { type CliCommand, CliInputError, defineCommand } from "./command";
import { demoSeedCommand } from "./demo-command";
import {
  CustomerCreateArgs,
  RatesSetArgs,
  SenderAddArgs,
  SenderDefaultArgs,
  SimulateInboundArgs,
  TokenCreateArgs,
  TokenRevokeArgs,
  TokenRotateArgs,
  UserCreateArgs,
} from "./schemas";

async function requireCustomer(id: string) {
  const customer = await findCustomer(id);
  if (!customer) throw new CliInputError("--customer", `no customer with id ${id}`);
  return customer;
}

const customerCreate = defineCommand({
  name: "customer:create",
  usage: "--name N [--plan starter|pro]",
  summary: "Create a customer account",
  options: { name: { type: "string" }, plan: { type: "string" } },
  schema: CustomerCreateArgs,
  run: async ({ name, plan }) => {
    const customer = await createCustomer({ name, plan });
    return {
      json: { customerId: customer.id, name: customer.name, plan: customer.plan },
      text: `Created customer ${customer.name} (${customer.plan}): ${customer.id}`,
    };
  },
});

const senderAdd = defineCommand({
  name: "sender:add",
  usage: "--customer ID --phone E164 [--phone-number-id ID] [--waba-id ID] [--display-name N] [--default]",
  summary: "Connect a sender phone number (no --phone-number-id: setup incomplete)",
  options: {
    customer: { type: "string" },
    phone: { type: "string" },
    "phone-number-id": { type: "string" },
    "waba-id": { type: "string" },
    "display-name": { type: "string" },
    default: { type: "boolean" },
  },
  schema: SenderAddArgs,
  run: async (input) => {
    await requireCustomer(input.customer);
    const sender = await addSender({
      customerId: input.customer,
      phoneNumber: input.phone,
      phoneNumberId: input.phoneNumberId,
      wabaId: input.wabaId,
      displayName: input.displayName,
      isDefault: input.default,
    });
    const setup = sender.phoneNumberId ? "" : " (setup incomplete: no provider phone number id)";
    return {
      json: {
        senderId: sender.id,
        customerId: sender.customerId,
        phoneNumber: sender.phoneNumber,
        phoneNumberId: sender.phoneNumberId,
        isDefault: sender.isDefault,
        setupComplete: sender.phoneNumberId !== null,
      },
      text: `Added sender ${sender.phoneNumber}${sender.isDefault ? " (default)" : ""}${setup}: ${sender.id}`,
    };
  },
});

const tokenCreate = defineCommand({
  name: "token:create",
  usage: "--customer ID [--sender E164] [--name N] [--expires-in-days D]",
  summary: "Issue an API token (global, or bound to one sender); the token is printed once",
  options: {
    customer: { type: "string" },
    sender: { type: "string" },
    name: { type: "string" },
    "expires-in-days": { type: "string" },
  },
  schema: TokenCreateArgs,
  run: async (input) => {
    await requireCustomer(input.customer);
    let sender: { id: string; phoneNumber: string } | null = null;
    if (input.sender) {
      sender = await db.sender.findFirst({
        where: { customerId: input.customer, phoneNumber: input.sender },
        select: { id: true, phoneNumber: true },
      });
      if (!sender) throw new CliInputError("--sender", `${input.sender} is not a sender of customer ${input.customer}`);
    }
    const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 86_400_000) : null;
    const { token, record } = await issueToken({
      customerId: input.customer,
      name: input.name,
      senderId: sender?.id ?? null,
      expiresAt,
    });
    const scope = sender ? `number-scoped to ${sender.phoneNumber}` : "global";
    return {
      json: {
        tokenId: record.id,
        token,
        prefix: record.prefix,
        name: record.name,
        customerId: input.customer,
        senderId: sender?.id ?? null,
        senderPhoneNumber: sender?.phoneNumber ?? null,
        scope: sender ? "number" : "global",
        expiresAt: record.expiresAt?.toISOString() ?? null,
      },
      text: [
        `Created ${scope} token "${record.name}" (${record.id}).`,
        "Copy it now; it is not shown again:",
        "",
        `  ${token}`,
        "",
      ].join("\n"),
    };
  },
});

const tokenRevoke = defineCommand({
  name: "token:revoke",
  usage: "TOKEN_ID",
  summary: "Revoke an API token (revoking twice is harmless)",
  positionals: ["TOKEN_ID"],
  schema: TokenRevokeArgs,
  run: async ({ tokenId }) => {
    // An operator acts for whichever customer owns the token.
    const owner = await db.apiToken.findUnique({
      where: { id: tokenId },
      select: { customerId: true, revokedAt: true },
    });
    if (!owner?.customerId) throw new CliInputError("TOKEN_ID", `no customer token with id ${tokenId}`);
    const token = await revokeToken({ customerId: owner.customerId }, tokenId);
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

const tokenRotate = defineCommand({
  name: "token:rotate",
  usage: "TOKEN_ID [--grace-hours N]",
  summary: "Issue a successor (printed once); the old token keeps working for N hours (default 24, at most 168)",
  positionals: ["TOKEN_ID"],
  options: { "grace-hours": { type: "string" } },
  schema: TokenRotateArgs,
  run: async ({ tokenId, graceHours }) => {
    const owner = await db.apiToken.findUnique({ where: { id: tokenId }, select: { customerId: true } });
    if (!owner?.customerId) throw new CliInputError("TOKEN_ID", `no customer token with id ${tokenId}`);
    const { token, successor, previous } = await rotateToken({ customerId: owner.customerId }, tokenId, {
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

const userCreate = defineCommand({
  name: "user:create",
  usage: "--customer ID --email E --password P [--name N]",
  summary: "Create a dashboard login for a customer",
  options: {
    customer: { type: "string" },
    email: { type: "string" },
    password: { type: "string" },
    name: { type: "string" },
  },
  schema: UserCreateArgs,
  run: async (input) => {
    await requireCustomer(input.customer);
    const user = await createUser({
      customerId: input.customer,
      email: input.email,
      password: input.password,
      name: input.name,
    });
    return {
      json: { userId: user.id, customerId: user.customerId, email: user.email },
      text: `Created user ${user.email}: ${user.id}`,
    };
  },
});

const ratesSet = defineCommand({
  name: "rates:set",
  usage: "--category C --rate R [--customer ID] [--currency USD]",
  summary: "Set the rate of a pricing category (global, or a customer's override)",
  options: {
    category: { type: "string" },
    rate: { type: "string" },
    customer: { type: "string" },
    currency: { type: "string" },
  },
  schema: RatesSetArgs,
  run: async (input) => {
    if (input.customer) await requireCustomer(input.customer);
    const row = await setRate({
      category: input.category,
      rate: Number(input.rate),
      customerId: input.customer,
      currency: input.currency,
    });
    return {
      json: {
        rateCardId: row.id,
        scope: row.scope,
        customerId: row.customerId,
        pricingCategory: row.pricingCategory,
        rate: row.rate.toString(),
        currency: row.currency,
      },
      text: `Rate for ${row.pricingCategory} (${row.scope}): ${row.rate.toString()} ${row.currency}`,
    };
  },
});

const simulateInboundCommand = defineCommand({
  name: "simulate:inbound",
  usage: "--sender E164 --from E164 --text T [--name N]",
  summary: "A contact writes to a sender (a signed inbound callback through the provider endpoint)",
  options: { sender: { type: "string" }, from: { type: "string" }, text: { type: "string" }, name: { type: "string" } },
  schema: SimulateInboundArgs,
  run: async (input) => {
    const r = await simulateInbound(input);
    return {
      json: { ...r },
      text: `${r.from} wrote to ${r.senderId} (${r.messageId})${r.conversationUid ? `: conversation ${r.conversationUid}` : ""}`,
    };
  },
});

const senderDefault = defineCommand({
  name: "sender:default",
  usage: "--customer ID --phone E164",
  summary: "Make one of the customer's senders its default (the others stop being default)",
  options: { customer: { type: "string" }, phone: { type: "string" } },
  schema: SenderDefaultArgs,
  run: async (input) => {
    await requireCustomer(input.customer);
    const sender = await setDefaultSender(input.customer, input.phone);
    return {
      json: { senderId: sender.id, customerId: sender.customerId, phoneNumber: sender.phoneNumber, isDefault: true },
      text: `Default sender of ${sender.customerId}: ${sender.phoneNumber} (${sender.id})`,
    };
  },
});

export const COMMANDS: readonly CliCommand[] = [
  customerCreate,
  senderAdd,
  senderDefault,
  tokenCreate,
  tokenRevoke,
  tokenRotate,
  userCreate,
  ratesSet,
  demoSeedCommand,
  callbacksDeadCommand,
  callbacksRetryCommand,
  simulateInboundCommand,
];
