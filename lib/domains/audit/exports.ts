// export.downloaded (docs/security.md "Audit log"): an export changes nothing, so its entry
// is written on its own, before the first row is streamed. A failed write refuses the export.
import { db } from "@/lib/db";
import type { Principal } from "@/lib/domains/auth/principal";
import { auditContext } from "./actor";
import { recordAudit } from "./record";

/** `what`: the export's name (billing, audit); `filters`: the view it was asked for (never a secret). */
export async function recordExport(
  p: Principal,
  what: string,
  filters: Record<string, string | number | boolean | null | undefined>,
): Promise<void> {
  const shown = Object.fromEntries(
    Object.entries(filters).flatMap(([k, v]) => (v === undefined || v === "" ? [] : [[k, v ?? null]])),
  );
  await recordAudit(db, {
    ...auditContext(p),
    action: "export.downloaded",
    target: { type: "export", uid: what },
    details: { filters: shown },
  });
}
