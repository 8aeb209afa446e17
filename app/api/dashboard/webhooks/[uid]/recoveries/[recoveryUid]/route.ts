// GET: one recovery job's progress (docs/webhook-recovery.md), polled by the webhook page's
// recovery panel; ?sender= names the sender that owns the webhook.
import { dashboardHandler } from "@/lib/dashboard/handler";
import { pageSender } from "@/lib/domains/senders/dashboard-scope";
import { getRecovery, toPublicRecovery } from "@/lib/domains/webhooks/recovery";
import { webhookNotFound } from "@/lib/domains/webhooks/service";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string; recoveryUid: string }> };

export const GET = dashboardHandler("webhooks", async (p, request, { params }: Ctx) => {
  const { uid, recoveryUid } = await params;
  const sender = await pageSender(p, new URL(request.url).searchParams.get("sender") || undefined);
  if (!sender) throw webhookNotFound(uid);
  return Response.json({ recovery: toPublicRecovery(await getRecovery(p, sender, uid, recoveryUid)) });
});
