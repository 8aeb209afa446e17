// The inbox's attachment end to end on the server (docs/inbox.md "Attaching a file"): an agent
// uploads a file through the session route and replies with it by id through the reply's
// route, the same send path as POST /conversations/{uid}/messages: it reaches the phone with
// the file's bytes and its caption, follows the window rule (closed: refused, nothing sent),
// and a file of another sender or kind is refused. The handlers run for real; only
// next-auth's session read is replaced.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { setProvider } from "@/lib/domains/provider/client";
import { ProviderSimulator, simulatorOptionsFromEnv } from "@/lib/domains/provider/simulator";
import { contactWrites } from "@/test/conversation-fixtures";
import { call, uniquePhone } from "@/test/factory";
import * as samples from "@/test/media-samples";
import { createMemberOf, type TestMember } from "@/test/member-fixtures";
import { messagingCustomer } from "@/test/messaging-fixtures";
import { nextRequest } from "@/test/next-request-double";

const uploadRoute = await import("@/app/api/dashboard/[...path]/route");
const replyRoute = await import("@/app/api/dashboard/[...path]/route");

const ORIGIN = "http://dash.test";
const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

let t: Awaited<ReturnType<typeof messagingCustomer>>;
let agent: TestMember;
let simulator: ProviderSimulator;

beforeAll(async () => {
  t = await messagingCustomer({ credit: 20 });
  simulator = new ProviderSimulator({ ...simulatorOptionsFromEnv(), replyRate: 0 });
  setProvider(simulator);
  agent = await createMemberOf(t.customer.id, "agent", [t.sender.phoneNumber]);
});
afterAll(() => setProvider(undefined));

async function upload(bytes: Buffer, name: string, senderId = t.sender.phoneNumber): Promise<string> {
  nextRequest.session = agent.session;
  const form = new FormData();
  form.set("senderId", senderId);
  form.set("file", new Blob([new Uint8Array(bytes)]), name);
  const res = await uploadRoute.POST(
    new Request(`${ORIGIN}/api/dashboard/media`, {
      method: "POST",
      headers: { Host: "dash.test", Origin: ORIGIN },
      body: form,
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { mediaId: string } }).data.mediaId;
}

function reply(uid: string, message: unknown) {
  nextRequest.session = agent.session;
  return replyRoute.POST(
    new Request(`${ORIGIN}/api/dashboard/conversations/${uid}/messages`, {
      method: "POST",
      headers: { Host: "dash.test", Origin: ORIGIN, "Content-Type": "application/json" },
      body: JSON.stringify({ message }),
    }),
    { params: Promise.resolve({ uid }) },
  );
}

async function conversationWith(contact: string, at?: Date): Promise<string> {
  await contactWrites(t.sender, contact, "Here is my problem", at ? { at } : {});
  return (await db.conversation.findFirstOrThrow({ where: { customerId: t.customer.id, contactPhoneNumber: contact } }))
    .id;
}

describe("replying with an attached file", () => {
  it("sends the uploaded file by id with its caption; it reaches the phone and the thread shows it", async () => {
    const contact = uniquePhone();
    const uid = await conversationWith(contact);
    const bytes = await samples.noisePng(40);
    const mediaId = await upload(bytes, "return-label.png");

    const res = await reply(uid, { type: "image", media: { id: mediaId, caption: "Print this label" } });
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    expect((await res.json()).data).toMatchObject({ type: "image", sendRoute: "chat" });

    const reached = simulator.acceptedTo(contact);
    expect(reached).toHaveLength(1);
    expect(reached[0]?.media?.map((f) => f.sha256)).toEqual([sha(bytes)]);
    expect(reached[0]?.type).toBe("image");

    const thread = await call("GET", `/api/v3/conversations/${uid}/messages`, { token: t.globalToken });
    const sent = thread.body.data.messages.find((m: { direction: string }) => m.direction === "outbound");
    expect(sent).toMatchObject({ type: "image", sentBy: "dashboard", sentByLabel: agent.email });
    expect(sent.content.image).toMatchObject({ id: mediaId, caption: "Print this label" });
  });

  it("follows the window rule: outside it a file is refused and nothing is sent", async () => {
    const contact = uniquePhone();
    const uid = await conversationWith(contact, new Date(Date.now() - 2 * 86_400_000));
    const mediaId = await upload(samples.pdf("Manual"), "manual.pdf");
    const res = await reply(uid, { type: "document", media: { id: mediaId, filename: "manual.pdf" } });
    expect(res.status).toBe(400);
    expect((await res.json()).error_code).toBe("CUSTOMER_SERVICE_WINDOW_CLOSED");
    expect(simulator.acceptedTo(contact)).toHaveLength(0);
  });

  it("refuses a file of another kind than the message's, and an unknown id, before anything is sent", async () => {
    const contact = uniquePhone();
    const uid = await conversationWith(contact);
    const pdfId = await upload(samples.pdf("Not a photo"), "not-a-photo.pdf");
    const wrongKind = await reply(uid, { type: "image", media: { id: pdfId } });
    expect(wrongKind.status).toBe(415);
    expect((await wrongKind.json()).error_code).toBe("MEDIA_TYPE_NOT_SUPPORTED");
    const unknown = await reply(uid, { type: "image", media: { id: "med_00000000000000000000000000000000" } });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error_code).toBe("MEDIA_NOT_FOUND");
    expect(simulator.acceptedTo(contact)).toHaveLength(0);
  });
});
