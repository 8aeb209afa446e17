// POST: one chunk of a dashboard bulk upload, through the same service as the public API.

import { dashboardHandler } from "@/lib/dashboard/handler";
import { readDashboardJson } from "@/lib/dashboard/request-guard";
import { bulkUploadContacts } from "@/lib/domains/contacts/bulk-upload";
import { BULK_BODY_LIMIT_BYTES, BulkUploadBody } from "@/lib/domains/contacts/schemas";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string }> };

export const POST = dashboardHandler<Ctx>("contacts.write", async (p, request, ctx) => {
  const { uid } = await ctx.params;
  const body = BulkUploadBody.parse(
    // Rows with text the database cannot store are reported per row by the service.
    await readDashboardJson(request, { limit: BULK_BODY_LIMIT_BYTES, textCheckedPerRow: "contacts" }),
  );
  return Response.json(await bulkUploadContacts(p, uid, body.contacts, body));
});
