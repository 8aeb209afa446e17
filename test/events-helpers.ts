// Helpers for the event pipeline tests: provider fixtures rewritten for a test sender,
// signed POSTs to the callback endpoint, and webhook destinations.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { encryptSecret } from "@/lib/core/crypto/secret-box";
import { db } from "@/lib/db";
import { signProviderBody } from "@/lib/domains/provider/callbacks/signature";
import type { Sender } from "@/lib/generated/prisma/client";
import { handleProviderWebhook } from "@/lib/http/provider-webhook";

const FIXTURES = path.resolve(import.meta.dirname, "fixtures/provider");

/** A fixture's raw text with the number, account, message and template ids made the test's own. */
export function fixture(name: string, sender: Pick<Sender, "phoneNumberId" | "wabaId">, tag: string): string {
  return readFileSync(path.join(FIXTURES, name), "utf8")
    .replaceAll("105550123456789", sender.phoneNumberId ?? "")
    .replaceAll("109876543210987", sender.wabaId ?? "")
    .replaceAll("wamid.", `wamid.${tag}.`)
    .replace(
      /"message_template_id": (\d+)/g,
      (_m, id: string) => `"message_template_id": ${tag.replace(/\D/g, "").slice(0, 6) || "1"}${id.slice(-9)}`,
    );
}

export const mid = (tag: string, suffix: string) => `wamid.${tag}.${suffix}`;

const STATUS_FIXTURES = [
  "01_status_sent.json",
  "02_status_delivered.json",
  "03_status_read.json",
  "04_status_failed.json",
  "05_status_batch.json",
];

type FixtureBody = { entry: { changes: { value: { statuses?: { id: string; recipient_id: string }[] } }[] }[] };

/**
 * Messages this service sent from `sender` with `providerIds` (recipient: +digits): the only
 * ones whose statuses are applied and billed (docs/event-pipeline.md). Without `providerIds`,
 * every message id of the status fixtures rewritten with `tag`.
 */
export async function sentMessages(sender: Sender, tag: string, providerIds?: Map<string, string>): Promise<void> {
  const ids = providerIds ?? new Map<string, string>();
  if (!providerIds) {
    for (const name of STATUS_FIXTURES) {
      const body = JSON.parse(fixture(name, sender, tag)) as FixtureBody;
      for (const e of body.entry)
        for (const c of e.changes) for (const st of c.value.statuses ?? []) ids.set(st.id, `+${st.recipient_id}`);
    }
  }
  await db.message.createMany({
    data: [...ids].map(([providerMessageId, recipient]) => ({
      id: `msg_${randomBytes(12).toString("hex")}`,
      customerId: sender.customerId,
      senderId: sender.id,
      providerMessageId,
      recipient,
      type: "template",
      sendRoute: "send",
      payload: {},
    })),
    skipDuplicates: true,
  });
}

export async function postProvider(raw: string, signature: string | null = signProviderBody(raw)) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (signature !== null) headers["x-hub-signature-256"] = signature;
  const response = await handleProviderWebhook(
    new Request("http://localhost/api/provider/webhook", { method: "POST", headers, body: raw }),
  );
  return { status: response.status, text: await response.text() };
}

export const newSigningSecret = () => `whsec_${randomBytes(32).toString("base64")}`;

export async function createDestination(input: {
  customerId: string;
  senderId: string;
  url: string;
  events: string[];
  secret?: string;
  status?: "ACTIVE" | "INACTIVE";
  timeoutMs?: number;
  retryEnabled?: boolean;
  retryMaxAttempts?: number;
  verification?: { header: string; token: string };
}) {
  const secret = input.secret ?? newSigningSecret();
  const destination = await db.webhookDestination.create({
    data: {
      customerId: input.customerId,
      senderId: input.senderId,
      name: "test destination",
      endpointUrl: input.url,
      events: input.events,
      status: input.status ?? "ACTIVE",
      timeoutMs: input.timeoutMs ?? 2000,
      retryEnabled: input.retryEnabled ?? true,
      retryMaxAttempts: input.retryMaxAttempts ?? 5,
      verificationHeaderKey: input.verification?.header ?? null,
      verificationTokenEnc: input.verification ? encryptSecret(input.verification.token) : null,
      signingSecretEnc: encryptSecret(secret),
    },
  });
  return { destination, secret };
}

/** Polls until check() is truthy (or fails after timeoutMs). */
export async function waitFor<T>(
  check: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  timeoutMs = 10_000,
  label = "condition",
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${label}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export type TestStatus = {
  id: string;
  status: string;
  recipient_id?: string;
  /** Provider time, unix seconds (default now). */
  timestamp?: number;
  errors?: { code: number; title: string }[];
  /** Default: billable marketing pricing. */
  pricing?: Record<string, unknown> | null;
};

/** A signed-to-be status callback of the sender's number, as the provider posts it (one change). */
export function statusBody(sender: Pick<Sender, "phoneNumberId" | "wabaId">, statuses: TestStatus[]): string {
  return JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        id: sender.wabaId,
        changes: [
          {
            field: "messages",
            value: {
              messaging_product: "whatsapp",
              metadata: { display_phone_number: "15550001234", phone_number_id: sender.phoneNumberId },
              statuses: statuses.map(({ pricing, timestamp, ...s }) => ({
                recipient_id: "15550001111",
                ...s,
                timestamp: String(timestamp ?? Math.floor(Date.now() / 1000)),
                ...(pricing === null
                  ? {}
                  : {
                      pricing: pricing ?? {
                        billable: true,
                        pricing_model: "PMP",
                        type: "regular",
                        category: "marketing",
                      },
                    }),
              })),
            },
          },
        ],
      },
    ],
  });
}
