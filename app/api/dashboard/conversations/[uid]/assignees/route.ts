// GET: the members this conversation can be assigned to (the thread's assignee picker):
// members whose role has the inbox and who may see the conversation's sender.

import { dashboardHandler } from "@/lib/dashboard/handler";
import { assignableMembers } from "@/lib/domains/conversations/assignees";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string }> };

export const GET = dashboardHandler("inbox", async (p, _request, { params }: Ctx) => {
  const { uid } = await params;
  return Response.json({ members: await assignableMembers(p, uid) });
});
