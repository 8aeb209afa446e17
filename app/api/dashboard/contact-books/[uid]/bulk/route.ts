// POST: one chunk of a dashboard bulk upload, through the same service as the public API.
import { bulkUploadContacts } from "@/lib/contacts/bulk-upload";
import { BulkUploadBody } from "@/lib/contacts/schemas";
import { dashboardHandler } from "@/lib/dashboard/handler";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string }> };

export const POST = dashboardHandler<Ctx>(async (p, request, ctx) => {
  const { uid } = await ctx.params;
  const body = BulkUploadBody.parse(await request.json());
  return Response.json(await bulkUploadContacts(p, uid, body.contacts));
});
