// Test fixtures: each test file creates its own customer (no shared fixed ids) and calls
// the real router in-process (test/router-call.ts).
import { randomBytes } from "node:crypto";
import { handleApiRequest } from "@/lib/api/router";
import { db } from "@/lib/db";
import { issueToken } from "@/lib/domains/tokens/service";
import type { Plan } from "@/lib/generated/prisma/client";
import { type CallOptions, type CallResult, callWith } from "./router-call";

let phoneSeq = 0;
/** A unique E.164 number per call (unique across test files and runs). */
/** Where this process's numbers start: random, so that test files (processes) rarely meet. */
const phoneBase = randomBytes(4).readUInt32BE() % 10_000_000;

/** A number no earlier call of this process gave (a random draw repeated within a few thousand). */
export function uniquePhone(): string {
  phoneSeq += 1;
  const line = (phoneBase + phoneSeq) % 10_000_000;
  return `+1${String(200 + (process.pid % 700)).padStart(3, "0")}${String(line).padStart(7, "0")}`;
}

export type TestCustomer = Awaited<ReturnType<typeof createTestCustomer>>;

/**
 * A customer with two set-up senders (the first is the default), one sender with setup
 * incomplete, a global token and a number-scoped token for the first sender.
 */
export async function createTestCustomer(options: { plan?: Plan; name?: string } = {}) {
  const customer = await db.customer.create({
    data: { name: options.name ?? `Test ${randomBytes(3).toString("hex")}`, plan: options.plan ?? "pro" },
  });
  const mk = (isDefault: boolean, setUp = true) =>
    db.sender.create({
      data: {
        customerId: customer.id,
        phoneNumber: uniquePhone(),
        phoneNumberId: setUp ? `10${randomBytes(6).readUIntBE(0, 6)}` : null,
        wabaId: `20${randomBytes(5).readUIntBE(0, 5)}`,
        isDefault,
      },
    });
  const sender = await mk(true);
  const otherSender = await mk(false);
  const incompleteSender = await mk(false, false);
  const globalToken = (await issueToken({ customerId: customer.id, name: "global" })).token;
  const scopedToken = (await issueToken({ customerId: customer.id, name: "scoped", senderId: sender.id })).token;
  return { customer, sender, otherSender, incompleteSender, globalToken, scopedToken };
}

export type { CallOptions, CallResult } from "./router-call";

/** Calls the API router in-process: call("GET", "/api/v3/billing/messages", {...}). */
export function call(method: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  return callWith(handleApiRequest, method, path, options);
}
