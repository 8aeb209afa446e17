// A detail page for another tenant's resource (or an id that names nothing)
// is Next's 404 page, raised with notFound(); before, the service's NOT_FOUND escaped the
// page and Next logged it as a server error with its stack.
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTestCustomer, type TestCustomer } from "@/test/factory";
import { nextRequest } from "@/test/next-request-double";

const { default: ChatbotPage } = await import("./chatbots/[uid]/page");
const { default: ContactBookPage } = await import("./contacts/[uid]/page");
const { default: WebhookPage } = await import("./webhooks/[uid]/page");

/** What notFound() throws: Next renders app/not-found.tsx with a 404 and logs nothing. */
const NOT_FOUND = { digest: "NEXT_HTTP_ERROR_FALLBACK;404" };

let mine: TestCustomer;
let theirs: { chatbot: string; book: string; webhook: string };
beforeAll(async () => {
  mine = await createTestCustomer();
  nextRequest.principal = {
    customerId: mine.customer.id,
    plan: "pro",
    via: "session",
    userId: "user-test",
    sessionId: "session-test",
    scopedSenderId: null,
    // An owner holds every permission (docs/members.md): what stops them here is the tenant.
    member: { userId: "user-test", email: "owner@example.com", name: null, role: "owner", senderIds: null },
  };
  const other = await createTestCustomer();
  const created = async (path: string, body: Record<string, unknown>, uid: string) => {
    const res = await call("POST", path, { token: other.globalToken, body });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
    return res.body.data[uid] as string;
  };
  theirs = {
    chatbot: await created(
      "/api/v3/chatbots",
      { chatbot: { name: "theirs", rules: [{ match: { type: "any" }, reply: { type: "text", text: "hi" } }] } },
      "chatbotUid",
    ),
    book: await created("/api/v3/contact-books", { contactBook: { name: "theirs" } }, "contactBookUid"),
    webhook: await created(
      "/api/v3/webhooks",
      { webhook: { name: "theirs", endpointUrl: "https://hooks.example.com/x", events: ["message.status.sent"] } },
      "webhookUid",
    ),
  };
});

const params = (uid: string) => ({ params: Promise.resolve({ uid }), searchParams: Promise.resolve({}) });

describe("detail pages of a resource the signed-in customer does not have", () => {
  it("another tenant's chatbot, contact book and webhook are the 404 page", async () => {
    await expect(ChatbotPage(params(theirs.chatbot))).rejects.toMatchObject(NOT_FOUND);
    await expect(ContactBookPage(params(theirs.book))).rejects.toMatchObject(NOT_FOUND);
    await expect(WebhookPage(params(theirs.webhook))).rejects.toMatchObject(NOT_FOUND);
  });

  it("an id that names nothing is the 404 page too", async () => {
    await expect(ChatbotPage(params("cbt_nothing"))).rejects.toMatchObject(NOT_FOUND);
    await expect(ContactBookPage(params("cb_nothing"))).rejects.toMatchObject(NOT_FOUND);
    await expect(WebhookPage(params("wh_nothing"))).rejects.toMatchObject(NOT_FOUND);
  });
});
