// GET: a file's bytes for the inbox (images, players, downloads), to members whose role reads
// the conversation (agents: their senders'), with the API content route's headers.
import { fileResponse } from "@/lib/api/file-response";
import { dashboardHandler } from "@/lib/dashboard/handler";
import { openMemberContent } from "@/lib/domains/media/members";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ mediaId: string }> };

export const GET = dashboardHandler("inbox", async (p, request, { params }: Ctx) => {
  const { mediaId } = await params;
  const answer = await openMemberContent(p, mediaId, {
    range: request.headers.get("range"),
    ifNoneMatch: request.headers.get("if-none-match"),
    ifRange: request.headers.get("if-range"),
    head: request.method === "HEAD",
  });
  return fileResponse(answer.status, answer.headers, answer.body);
});
