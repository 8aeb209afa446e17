// POST {add: [name...], remove: [name...]}: the thread's labels change as the signed-in
// member's (conversation.labels_changed; the account's labels_changed rules run).

import { dashboardHandler } from "@/lib/dashboard/handler";
import { readDashboardJson } from "@/lib/dashboard/request-guard";
import { changeConversationLabelsWithRules } from "@/lib/domains/automation/labels";
import { LabelChange } from "@/lib/domains/labels/schemas";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string }> };

export const POST = dashboardHandler("inbox", async (p, request, { params }: Ctx) => {
  const { uid } = await params;
  const change = LabelChange.parse(await readDashboardJson(request));
  return Response.json(await changeConversationLabelsWithRules(p, undefined, uid, change));
});
