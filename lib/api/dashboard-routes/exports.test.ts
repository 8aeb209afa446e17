// The dashboard's CSV exports (lib/api/dashboard-routes/exports.ts) through the dashboard's
// catch-all, the router with the member's session: the download's headers, the rows, the
// export recorded, the filters checked, the permission each names, and never to a token.
// (The recipients export: lib/domains/broadcasts/broadcast-dashboard.test.ts.)
import Papa from "papaparse";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { AUDIT_CSV_COLUMNS } from "@/lib/domains/audit/csv";
import { CSV_COLUMNS } from "@/lib/domains/billing/csv";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { createMemberOf, type TestMember } from "@/test/member-fixtures";
import { nextRequest } from "@/test/next-request-double";

const mount = await import("@/app/api/dashboard/[...path]/route");

let t: TestCustomer;
let owner: TestMember;
let agent: TestMember;

function download(as: TestMember | null, path: string) {
  nextRequest.session = as?.session ?? null;
  return mount.GET(new Request(`http://dash.test/api/dashboard${path}`, { headers: { Host: "dash.test" } }));
}

const rowsOf = (text: string) => Papa.parse<Record<string, string>>(text.trim(), { header: true }).data;

async function lastExport(customerId: string) {
  return db.auditEvent.findFirstOrThrow({
    where: { customerId, action: "export.downloaded" },
    orderBy: { createdAt: "desc" },
  });
}

beforeAll(async () => {
  t = await createTestCustomer();
  owner = await createMemberOf(t.customer.id, "owner");
  agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
});

describe("GET /api/dashboard/audit/export", () => {
  it("streams the log as an attachment, recorded before the first row", async () => {
    const res = await download(owner, "/audit/export?action=export.downloaded");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const text = await res.text();
    expect(text.split("\n")[0]).toBe(AUDIT_CSV_COLUMNS.join(","));
    // The export itself is the one entry its filter names: written before the rows were read.
    expect(rowsOf(text).map((r) => r.action)).toEqual(["export.downloaded"]);
    expect((await lastExport(t.customer.id)).targetUid).toBe("audit");
  });

  it("a filter it cannot apply is VALIDATION_FAILED naming it; nothing is recorded", async () => {
    const before = await db.auditEvent.count({ where: { customerId: t.customer.id } });
    const res = await download(owner, "/audit/export?dateFrom=yesterday");
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error_code).toBe("VALIDATION_FAILED");
    expect(body.details.fields.map((f: { path: string }) => f.path)).toContain("query.dateFrom");
    expect(await db.auditEvent.count({ where: { customerId: t.customer.id } })).toBe(before);
  });

  it("an agent is refused naming the permission; without a session 401", async () => {
    const res = await download(agent, "/audit/export");
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ error_code: "PERMISSION_DENIED", details: { permission: "audit" } });
    expect((await download(null, "/audit/export")).status).toBe(401);
  });
});

describe("GET /api/dashboard/billing/export", () => {
  it("streams the explorer's view as an attachment, recorded", async () => {
    const res = await download(owner, `/billing/export?sender=${encodeURIComponent(t.sender.phoneNumber)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="billing-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect((await res.text()).split("\n")[0]).toBe(CSV_COLUMNS.join(","));
    const recorded = await lastExport(t.customer.id);
    expect(recorded.targetUid).toBe("billing");
    expect(recorded.details).toMatchObject({ filters: { senderId: t.sender.id } });
  });

  it("an agent is refused naming the permission", async () => {
    const res = await download(agent, "/billing/export");
    expect(res.status).toBe(403);
    expect((await res.json()).details).toEqual({ permission: "billing" });
  });
});

describe("GET /api/dashboard/reports/export", () => {
  it("answers the table as an attachment named for its period, recorded", async () => {
    const res = await download(owner, "/reports/export?table=heatmap&days=7");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="support-heatmap-.+\.csv"$/);
    expect((await res.text()).split("\n")[0]).toBe("weekday,hour,inbound");
    expect((await lastExport(t.customer.id)).targetUid).toBe("support-report");
  });
});

describe("the exports are the dashboard's alone", () => {
  it.each(["/audit/export", "/billing/export", "/reports/export", "/broadcasts/brd_x/recipients/export"])(
    "a token gets 404 at %s on v2 and v3",
    async (path) => {
      for (const version of ["v2", "v3"]) {
        const res = await call("GET", `/api/${version}${path}`, { token: t.globalToken });
        expect(res.status).toBe(404);
        expect(res.body.error_code).toBe("NOT_FOUND");
      }
    },
  );
});
