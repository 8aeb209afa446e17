import { beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/core/errors";
import type { Principal } from "@/lib/domains/auth/principal";

const revalidatePath = vi.fn();
vi.mock("next/cache", () => ({ revalidatePath: (...args: unknown[]) => revalidatePath(...args) }));

const principal = {
  customerId: "c1",
  userId: "u1",
  member: { userId: "u1", email: "u1@example.test", name: null, role: "admin", senderIds: null },
} as unknown as Principal;
const requirePrincipal = vi.fn(async () => principal);
vi.mock("./session", () => ({ requirePrincipal: () => requirePrincipal() }));

const { defineAction, RecordId } = await import("./define-action");

const Rename = z.object({ uid: RecordId, book: z.object({ name: z.string().min(1, "name is required") }) });

beforeEach(() => {
  revalidatePath.mockClear();
  requirePrincipal.mockClear();
});

describe("defineAction", () => {
  it("hands the run the principal and the parsed input, answers its value and revalidates the page", async () => {
    const run = vi.fn(async ({ input }: { input: z.output<typeof Rename> }) => ({ uid: input.uid }));
    const action = defineAction({
      permission: "contacts.write",
      schema: Rename,
      run,
      revalidate: ({ input }) => `/contacts/${input.uid}`,
    });
    expect(await action({ uid: "b1", book: { name: " Leads" } })).toEqual({ ok: true, data: { uid: "b1" } });
    expect(run).toHaveBeenCalledWith({ principal, input: { uid: "b1", book: { name: " Leads" } } });
    expect(revalidatePath).toHaveBeenCalledExactlyOnceWith("/contacts/b1");
  });

  it("revalidates a fixed path, or a layout and every page below it", async () => {
    await defineAction({
      permission: "contacts.write",
      schema: z.object({}),
      run: async () => undefined,
      revalidate: "/tokens",
    })({});
    await defineAction({
      permission: "contacts.write",
      schema: z.object({}),
      run: async () => undefined,
      revalidate: { path: "/", type: "layout" },
    })({});
    expect(revalidatePath.mock.calls).toEqual([["/tokens"], ["/", "layout"]]);
  });

  it("refuses input its schema refuses, by form field, before the run and without revalidating", async () => {
    const run = vi.fn(async () => undefined);
    const action = defineAction({ permission: "contacts.write", schema: Rename, run, revalidate: "/contacts" });
    expect(await action({ uid: "b1", book: { name: "" } })).toEqual({
      ok: false,
      message: "name is required",
      code: "VALIDATION_FAILED",
      fields: { name: "name is required" },
    });
    expect(run).not.toHaveBeenCalled();
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("refuses text the database cannot store, naming its field", async () => {
    const run = vi.fn(async () => undefined);
    const result = await defineAction({ permission: "contacts.write", schema: Rename, run })({
      uid: "b1",
      book: { name: "bad \ud800" },
    });
    expect(result).toMatchObject({ ok: false, code: "VALIDATION_FAILED", fields: { name: expect.any(String) } });
    expect(run).not.toHaveBeenCalled();
  });

  it("with fieldsBelow, keys refusals by their path below that part (the schema's and the service's)", async () => {
    const Rule = z.object({ rule: z.object({ actions: z.array(z.object({ text: z.string().min(1, "empty") })) }) });
    const action = defineAction({
      permission: "automations",
      schema: Rule,
      fieldsBelow: "rule",
      run: async () => {
        throw new ApiError("VALIDATION_FAILED", "body.rule.actions.1.labels.0: no label", {
          fields: [{ path: "body.rule.actions.1.labels.0", message: "no label" }],
        });
      },
    });
    expect(await action({ rule: { actions: [{ text: "a" }, { text: "" }] } })).toMatchObject({
      fields: { "actions.1.text": "empty" },
    });
    expect(await action({ rule: { actions: [{ text: "a" }] } })).toMatchObject({
      fields: { "actions.1.labels.0": "no label" },
    });
  });

  it("answers a service's error as the result and does not revalidate", async () => {
    const action = defineAction({
      permission: "contacts.write",
      schema: z.object({}),
      run: async () => {
        throw new ApiError("WEBHOOK_NOT_FOUND", "Webhook not found");
      },
      revalidate: "/contacts",
    });
    expect(await action({})).toEqual({ ok: false, message: "Webhook not found", code: "WEBHOOK_NOT_FOUND" });
    expect(revalidatePath).not.toHaveBeenCalled();
  });

  it("asks for the session before it reads the input; a public action never does", async () => {
    requirePrincipal.mockRejectedValueOnce(new Error("NEXT_REDIRECT /login"));
    const run = vi.fn(async () => undefined);
    await expect(
      defineAction({ permission: "contacts.write", schema: Rename, run })({ uid: "", book: { name: "" } }),
    ).rejects.toThrow("NEXT_REDIRECT");
    expect(run).not.toHaveBeenCalled();

    const signUp = defineAction({ auth: "public", schema: z.object({ email: z.string() }), run: async (ctx) => ctx });
    expect(await signUp({ email: "a@example.com" })).toEqual({ ok: true, data: { input: { email: "a@example.com" } } });
    expect(requirePrincipal).toHaveBeenCalledTimes(1);
  });

  it("a member whose role lacks the permission is sent to /no-access and the run never starts", async () => {
    requirePrincipal.mockResolvedValueOnce({
      ...principal,
      member: { userId: "u2", email: "u2@example.test", name: null, role: "agent", senderIds: null },
    } as unknown as Principal);
    const run = vi.fn(async () => undefined);
    const refused = defineAction({ permission: "contacts.write", schema: z.object({}), run })({});
    await expect(refused).rejects.toMatchObject({ digest: expect.stringContaining("/no-access?need=contacts.write") });
    expect(run).not.toHaveBeenCalled();
  });
});
