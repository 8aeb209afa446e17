// GET: the account's saved replies (their buttons too), for the reply box's `/` menu
// (docs/inbox.md "Saved replies").

import { dashboardHandler } from "@/lib/dashboard/handler";
import { listSavedReplies } from "@/lib/domains/conversations/saved-replies";

export const dynamic = "force-dynamic";

export const GET = dashboardHandler("inbox", async (p) => {
  const replies = await listSavedReplies(p);
  return Response.json({
    savedReplies: replies.map(({ id, shortcut, text, buttons }) => ({ id, shortcut, text, buttons })),
  });
});
