// The welcome credit (docs/api/billing.md "Welcome credit"): in simulator mode a new self-serve
// account starts with SIMULATOR_WELCOME_CREDIT as its own ledger entry, so the onboarding's
// first template (hello_world, a paid utility template) goes through instead of 402
// INSUFFICIENT_BALANCE; with 0 configured there is none, and the send is refused.
import { randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/core/env";
import type { Principal } from "@/lib/domains/auth/principal";
import { SignupInput } from "@/lib/domains/auth/schemas";
import { setRate } from "@/lib/domains/billing/rate-card";
import { connectSender } from "@/lib/domains/onboarding/connect-sender";
import { issueToken } from "@/lib/domains/tokens/service";
import { call, uniquePhone } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { signUp, WELCOME_CREDIT_NOTE } from "./signup";

afterEach(() => {
  delete process.env.SIMULATOR_WELCOME_CREDIT;
  resetEnvCache();
});

const randomIp = () => `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;

/** Signs up, connects a first sender and sends hello_world, as the onboarding checklist leads. */
async function onboard() {
  const email = `new-${randomBytes(5).toString("hex")}@example.com`;
  const outcome = await signUp(
    SignupInput.parse({ company: "Fresh Co", email, password: "a-long-password" }),
    randomIp(),
  );
  if (outcome.status !== "created") throw new Error("the sign-up created no account");
  const { customer } = outcome;
  // The operator's rate for utility messages applies to this account as to any.
  await setRate({ category: "utility", rate: 0.25, customerId: customer.id });
  const principal: Principal = memberPrincipal(customer.id);
  await connectSender(principal, { phoneNumber: uniquePhone() });
  const { token } = await issueToken({ customerId: customer.id, name: "first" });
  const sent = await call("POST", "/api/v3/send", {
    token,
    body: { to: uniquePhone(), template: { name: "hello_world", language: "en_US" } },
  });
  const ledger = await call("GET", "/api/v3/billing/history", { token });
  return { sent, ledger };
}

describe("welcome credit", () => {
  it("a new account in simulator mode has it in its ledger and its first template goes through", async () => {
    process.env.SIMULATOR_WELCOME_CREDIT = "10";
    resetEnvCache();
    const { sent, ledger } = await onboard();
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(ledger.status).toBe(200);
    const entries = ledger.body.data.transactions as { type: string; amount: number; description: string }[];
    expect(entries).toContainEqual(
      expect.objectContaining({ type: "credit", amount: 10, description: WELCOME_CREDIT_NOTE }),
    );
    expect(ledger.body.data.summary.credits).toBe(10);
  });

  it("set to 0 there is none, and the first template is refused for balance", async () => {
    process.env.SIMULATOR_WELCOME_CREDIT = "0";
    resetEnvCache();
    const { sent, ledger } = await onboard();
    expect(sent.status).toBe(402);
    expect(sent.body.error_code).toBe("INSUFFICIENT_BALANCE");
    expect(ledger.body.data.transactions).toEqual([]);
  });
});
