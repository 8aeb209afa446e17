import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";

describe("database", () => {
  it("has the migrated schema", async () => {
    const c = await db.customer.create({ data: { name: "Probe" } });
    expect(await db.customer.findUnique({ where: { id: c.id } })).toMatchObject({ name: "Probe", plan: "pro" });
  });
});
