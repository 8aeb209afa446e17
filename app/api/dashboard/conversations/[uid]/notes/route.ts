// GET: the conversation's internal notes, newest first; POST {note: {text}}: write one as the
// signed-in member. Notes are never sent to the contact (docs/inbox.md "Internal notes").

import { PageQuery } from "@/lib/core/pagination";
import { dashboardHandler } from "@/lib/dashboard/handler";
import { readDashboardJson } from "@/lib/dashboard/request-guard";
import { addNote, listNotes } from "@/lib/domains/conversations/notes";
import { ConversationNoteBody } from "@/lib/domains/conversations/schemas";

export const dynamic = "force-dynamic";

type Ctx = { params: Promise<{ uid: string }> };

export const GET = dashboardHandler("inbox", async (p, request, { params }: Ctx) => {
  const { uid } = await params;
  const query = PageQuery.parse({ limit: "100", ...Object.fromEntries(new URL(request.url).searchParams) });
  const { notes, total } = await listNotes(p, undefined, uid, query);
  return Response.json({ notes, total });
});

export const POST = dashboardHandler("inbox", async (p, request, { params }: Ctx) => {
  const { uid } = await params;
  const body = ConversationNoteBody.parse(await readDashboardJson(request));
  return Response.json({ note: await addNote(p, undefined, uid, body.note.text) }, { status: 201 });
});
