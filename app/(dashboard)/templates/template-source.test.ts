// A template's Source on the dashboard names where it came from; the synced sample hello_world
// is not "manual" (Template.origin, lib/domains/templates/service.ts), and the sync keeps the
// origin of a template created here.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { createTemplate, syncTemplates } from "@/lib/domains/templates/service";
import { createTestCustomer } from "@/test/factory";
import { memberPrincipal } from "@/test/member-fixtures";
import { sourceText } from "./template-source";

describe("a template's source on the dashboard", () => {
  it("says auto-generated, synced from the provider, created here, or manual for older rows", () => {
    expect(sourceText({ source: "AUTO_GENERATED", origin: null })).toBe("auto-generated");
    expect(sourceText({ source: "MANUAL", origin: "provider" })).toBe("synced from the provider");
    expect(sourceText({ source: "MANUAL", origin: "switchboard" })).toBe("created here");
    expect(sourceText({ source: "MANUAL", origin: null })).toBe("manual");
  });

  it("the synced hello_world is synced from the provider; a template created here stays created here", async () => {
    const t = await createTestCustomer();
    const p: Principal = memberPrincipal(t.customer.id);
    const created = await createTemplate(p, t.sender, {
      name: `created_${Date.now()}`,
      language: "en",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Your code is ready." }],
    });
    await syncTemplates(p, t.sender);
    const rows = await db.template.findMany({ where: { customerId: t.customer.id } });
    const hello = rows.find((r) => r.name === "hello_world");
    expect(hello && sourceText(hello)).toBe("synced from the provider");
    const mine = rows.find((r) => r.id === created.id);
    expect(mine && sourceText(mine)).toBe("created here");
    // The API's source stays the contract's.
    expect(hello?.source).toBe("MANUAL");
  });
});
