// The per-address limits of the dashboard's public forms key on the address the request
// really came from (lib/core/client-ip.ts): a client that spends an address's budget stops
// only that address, and a forged address claim never lands on the budget of the address it
// names. The real server actions run; only next/headers is replaced by the headers Next
// would hand them (the address signed by the process that held the socket). The sign-in and
// the second factor, which next-auth reads through its own CommonJS import of next/headers,
// are proven end to end against the real front server and `next start`
// (e2e/client-address.spec.ts).
import { beforeEach, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER, signedClientAddress } from "@/lib/core/client-ip";
import { RESET_BUDGETS } from "@/lib/domains/security/limits";
import { nextRequest } from "@/test/next-request-double";

const { requestResetAction } = await import("@/app/(auth)/forgot-password/actions");
const { signUpAction } = await import("@/app/(auth)/signup/actions");

/** Headers as the signed address of `address` reaches Next's handlers. */
const from = (address: string) => {
  nextRequest.headers = new Headers({ [CLIENT_ADDRESS_HEADER]: signedClientAddress(address) ?? "" });
};
/** A client's own claim to be `address` (what reaches a handler only if nothing replaced it). */
const claiming = (address: string) => {
  nextRequest.headers = new Headers({ [CLIENT_ADDRESS_HEADER]: `${address} Zm9yZ2Vk`, "x-forwarded-for": address });
};

let n = 0;
const unknownEmail = () => `nobody-${Date.now()}-${n++}@example.test`;

beforeEach(() => {
  nextRequest.headers = new Headers();
});

describe("password reset requests", () => {
  it("spent by one address, still answered for another; forged claims never spend the named address's budget", async () => {
    from("203.0.113.10");
    for (let i = 0; i < RESET_BUDGETS.ip.points; i++) {
      expect((await requestResetAction({ email: unknownEmail() })).ok).toBe(true);
    }
    const refused = await requestResetAction({ email: unknownEmail() });
    expect(refused).toMatchObject({ ok: false, message: expect.stringContaining("Too many reset requests") });

    // Twice the budget, each claiming to come from 203.0.113.11...
    for (let i = 0; i < 2 * RESET_BUDGETS.ip.points; i++) {
      claiming("203.0.113.11");
      await requestResetAction({ email: unknownEmail() });
    }
    // ...and 203.0.113.11 itself is answered.
    from("203.0.113.11");
    expect(await requestResetAction({ email: unknownEmail() })).toMatchObject({ ok: true });
  });
});

describe("sign-ups", () => {
  it("spent by one address, still open to another", async () => {
    const limit = Number(process.env.RATE_LIMIT_SIGNUP_IP ?? 10);
    const signUp = () => signUpAction({ company: "Limits Co", email: unknownEmail(), password: "a-long-password-1" });
    from("198.51.100.20");
    for (let i = 0; i < limit; i++) expect(await signUp()).toMatchObject({ ok: true });
    expect(await signUp()).toMatchObject({ ok: false, message: expect.stringContaining("Too many sign-ups") });
    from("198.51.100.21");
    expect(await signUp()).toMatchObject({ ok: true });
  });
});
