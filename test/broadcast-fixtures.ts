// A broadcast of the test template to a list of numbers, created and started through the API
// (as an integrator does: docs/broadcasts.md "How to send one"), for the tests of the engine.
import { expect } from "vitest";
import { call } from "@/test/factory";

/** Creates and starts a broadcast of order_update to `phones`; its uid. */
export async function startedBroadcast(
  token: string,
  phones: string[],
  options: { name?: string; maxPerSecond?: number } = {},
): Promise<string> {
  const created = await call("POST", "/api/v3/broadcasts", {
    token,
    body: {
      broadcast: {
        name: options.name ?? "Test broadcast",
        template: { name: "order_update", language: "en" },
        audience: { phoneNumbers: phones },
        variables: { body: [{ source: "constant", value: "Ana" }] },
        ...(options.maxPerSecond ? { maxPerSecond: options.maxPerSecond } : {}),
      },
    },
  });
  expect(created.status).toBe(201);
  const uid = created.body.data.broadcastUid as string;
  expect((await call("POST", `/api/v3/broadcasts/${uid}/start`, { token, body: {} })).status).toBe(200);
  return uid;
}
