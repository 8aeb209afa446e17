// POST: the reply box's attachment (multipart/form-data: `file`, `senderId`, optional `type`),
// streamed and checked as POST /media checks it; answers the file's facts, then sent by id.
import { readMultipart } from "@/lib/api/multipart";
import { dashboardHandler } from "@/lib/dashboard/handler";
import { LARGEST_MEDIA_BYTES } from "@/lib/domains/media/kinds";
import { receiveMemberUpload, storeMemberUpload } from "@/lib/domains/media/members";
import { MediaUploadForm } from "@/lib/domains/media/schemas";
import { toPublicMedia } from "@/lib/domains/media/serializers";

export const dynamic = "force-dynamic";

export const POST = dashboardHandler(
  "inbox",
  async (p, request) => {
    const { fields, file } = await readMultipart(request, {
      field: "file",
      maxBytes: LARGEST_MEDIA_BYTES + 64 * 1024,
      receive: (stream, info) => receiveMemberUpload(p, stream, info),
    });
    try {
      const form = MediaUploadForm.parse({ ...fields, file });
      return Response.json({ media: toPublicMedia(await storeMemberUpload(p, form)) }, { status: 201 });
    } finally {
      await file?.discard();
    }
  },
  { body: "multipart" },
);
