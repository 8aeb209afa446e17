// Stock provider SDKs against the service with only their base URL changed (docs/messaging.md
// "Provider SDKs", docs/media.md "Provider SDKs"): @great-detail/whatsapp and whatsapp-api-js,
// each with its own default Graph version (v23.0, v24.0), send a template and a text, mark an
// inbound message read, read the phone number, and upload, read, download, send by id and
// delete a file, through the lean server's /graph mount over real HTTP.
import { createHash } from "node:crypto";
import type { AddressInfo } from "node:net";
import { Client } from "@great-detail/whatsapp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WhatsAppAPI } from "whatsapp-api-js";
import { BodyComponent, BodyParameter, Document, Language, Template, Text } from "whatsapp-api-js/messages";
import { db } from "@/lib/db";
import { getSimulator } from "@/lib/domains/provider/client";
import { createLeanServer } from "@/lib/http/lean-server";
import { mounts } from "@/lib/http/mounts";
import { contactWrites } from "./conversation-fixtures";
import { uniquePhone } from "./factory";
import * as samples from "./media-samples";
import { messagingCustomer } from "./messaging-fixtures";

const server = createLeanServer(mounts);
let base: string;
let t: Awaited<ReturnType<typeof messagingCustomer>>;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await messagingCustomer({ credit: 10 });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const phoneNumberId = () => t.sender.phoneNumberId ?? "";
const stored = (providerMessageId: string) => db.message.findFirst({ where: { providerMessageId } });
const unread = async (contact: string) =>
  (
    await db.conversation.findFirstOrThrow({
      where: { customerId: t.customer.id, contactPhoneNumber: contact },
    })
  ).unreadCount;

describe("@great-detail/whatsapp (default Graph version v23.0), base URL changed", () => {
  const client = () =>
    new Client({ prefixUrl: `${base}/graph`, request: { headers: { Authorization: `Bearer ${t.globalToken}` } } });

  it("sends a template and a text, echoing `to` as sent", async () => {
    const to = uniquePhone();
    const template = await client()
      .message.createMessage({
        phoneNumberID: phoneNumberId(),
        to: to.slice(1),
        type: "template",
        template: {
          name: "order_update",
          language: { code: "en" },
          components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }],
        },
      } as Parameters<ReturnType<typeof client>["message"]["createMessage"]>[0])
      .json<{ contacts: { input: string; wa_id: string }[]; messages: { id: string }[] }>();
    expect(template.contacts).toEqual([{ input: to.slice(1), wa_id: to.slice(1) }]);
    expect(await stored(template.messages[0]?.id ?? "")).toMatchObject({ recipient: to, type: "template" });

    const writer = uniquePhone();
    await contactWrites(t.sender, writer, "Hi there");
    const text = await client()
      .message.createMessage({
        phoneNumberID: phoneNumberId(),
        to: writer,
        type: "text",
        text: { body: "Hello from a stock SDK" },
      } as Parameters<ReturnType<typeof client>["message"]["createMessage"]>[0])
      .json<{ contacts: { input: string }[]; messages: { id: string }[] }>();
    expect(text.contacts[0]?.input).toBe(writer);
    expect(await stored(text.messages[0]?.id ?? "")).toMatchObject({ recipient: writer, type: "text" });
  });

  it("marks an inbound message read and reads the phone number", async () => {
    const writer = uniquePhone();
    const inbound = await contactWrites(t.sender, writer, "Are you there?");
    expect(await unread(writer)).toBe(1);
    const read = await client()
      .message.createStatus({ phoneNumberID: phoneNumberId(), status: "read", message_id: inbound })
      .json();
    expect(read).toEqual({ success: true });
    expect(await unread(writer)).toBe(0);

    const number = await client().phoneNumbers.getPhoneNumber({ phoneNumberID: phoneNumberId() }).json();
    expect(number).toMatchObject({ id: phoneNumberId(), quality_rating: "GREEN", platform_type: "CLOUD_API" });
  });

  it("gets the provider's errors: 400 with 132001 for a missing template, 100 for an unknown message id", async () => {
    const missing = await client().message.createMessage({
      phoneNumberID: phoneNumberId(),
      to: uniquePhone(),
      type: "template",
      template: { name: "no_such_template", language: { code: "en" } },
      request: { throwHttpErrors: false },
    } as Parameters<ReturnType<typeof client>["message"]["createMessage"]>[0]);
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: { code: 132001 } });
    const unknown = await client().message.createStatus({
      phoneNumberID: phoneNumberId(),
      status: "read",
      message_id: "wamid.unknown",
      request: { throwHttpErrors: false },
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: 100 } });
  });
});

/** The sha256 of the files the (simulated) provider delivered to this contact. */
const reached = (contact: string) =>
  (getSimulator()?.acceptedTo(contact) ?? []).flatMap((m) => (m.media ?? []).map((f) => f.sha256));

const sha = (bytes: Buffer | ArrayBuffer) =>
  createHash("sha256")
    .update(Buffer.from(bytes as ArrayBuffer))
    .digest("hex");

describe("@great-detail/whatsapp media, base URL changed", () => {
  const client = () =>
    new Client({ prefixUrl: `${base}/graph`, request: { headers: { Authorization: `Bearer ${t.globalToken}` } } });

  it("uploads a file, reads its link, downloads it with the token, sends it by id, deletes it", async () => {
    const bytes = await samples.jpeg(200, 100);
    const { id } = await client()
      .media.upload({
        phoneNumberID: phoneNumberId(),
        file: new Blob([new Uint8Array(bytes)], { type: "image/jpeg" }),
        filename: "parcel.jpg",
        mimeType: "image/jpeg",
      })
      .json<{ id: string }>();
    expect(id).toMatch(/^med_/);
    const info = await client().media.getURL({ mediaID: id, phoneNumberID: phoneNumberId() }).json<{
      url: string;
      mime_type: string;
      sha256: string;
      file_size: string;
    }>();
    expect(info).toMatchObject({ mime_type: "image/jpeg", sha256: sha(bytes), file_size: String(bytes.length) });
    const download = await client().media.download({
      mediaURL: info.url,
      request: { headers: { Authorization: `Bearer ${t.globalToken}` } },
    });
    expect(sha(await download.arrayBuffer())).toBe(sha(bytes));

    // Sent by the id the upload answered: the provider received the same bytes.
    const writer = uniquePhone();
    await contactWrites(t.sender, writer, "Where is my parcel?");
    const sent = await client()
      .message.createMessage({
        phoneNumberID: phoneNumberId(),
        to: writer,
        type: "image",
        image: { id, caption: "Your parcel" },
      } as Parameters<ReturnType<typeof client>["message"]["createMessage"]>[0])
      .json<{ messages: { id: string }[] }>();
    expect(await stored(sent.messages[0]?.id ?? "")).toMatchObject({ recipient: writer, type: "image", mediaId: id });
    expect(reached(writer)).toEqual([sha(bytes)]);

    expect(await client().media.delete({ mediaID: id, phoneNumberID: phoneNumberId() }).json()).toEqual({
      success: true,
    });
    const gone = await client().media.getURL({ mediaID: id, request: { throwHttpErrors: false } });
    expect(gone.status).toBe(404);
  });
});

describe("whatsapp-api-js (default Graph version v24.0), base URL changed", () => {
  const api = () =>
    new WhatsAppAPI({
      token: t.globalToken,
      secure: false,
      v: undefined as unknown as string,
      // The SDK has no base-URL option: its fetch is the place to point it at the service.
      ponyfill: {
        fetch: (url: RequestInfo | URL, init?: RequestInit) =>
          fetch(String(url).replace("https://graph.facebook.com", `${base}/graph`), init),
      },
    });

  it("sends a template and a text, and marks a message read", async () => {
    const to = uniquePhone();
    const template = (await api().sendMessage(
      phoneNumberId(),
      to.slice(1),
      new Template("order_update", new Language("en"), new BodyComponent(new BodyParameter("Ana"))),
    )) as { messages?: { id: string }[]; error?: unknown };
    expect(template.error).toBeUndefined();
    expect(await stored(template.messages?.[0]?.id ?? "")).toMatchObject({ recipient: to, type: "template" });

    const writer = uniquePhone();
    const inbound = await contactWrites(t.sender, writer, "Hello?");
    const text = (await api().sendMessage(phoneNumberId(), writer.slice(1), new Text("Hello back"))) as {
      messages?: { id: string }[];
    };
    expect(await stored(text.messages?.[0]?.id ?? "")).toMatchObject({ recipient: writer, type: "text" });

    expect(await api().markAsRead(phoneNumberId(), inbound)).toEqual({ success: true });
    expect(await unread(writer)).toBe(0);
  });
});

describe("whatsapp-api-js media", () => {
  const api = () =>
    new WhatsAppAPI({
      token: t.globalToken,
      secure: false,
      v: undefined as unknown as string,
      ponyfill: {
        fetch: (url: RequestInfo | URL, init?: RequestInit) =>
          fetch(String(url).replace("https://graph.facebook.com", `${base}/graph`), init),
      },
    });

  it("uploads a document, retrieves and fetches it, sends it by id, deletes it", async () => {
    const bytes = samples.pdf("Return label 1042");
    const form = new FormData();
    form.set("file", new Blob([new Uint8Array(bytes)], { type: "application/pdf" }), "label.pdf");
    form.set("type", "application/pdf");
    const uploaded = (await api().uploadMedia(phoneNumberId(), form)) as { id?: string; error?: unknown };
    expect(uploaded.error).toBeUndefined();
    const id = uploaded.id ?? "";
    const info = (await api().retrieveMedia(id)) as { url: string; sha256: string; mime_type: string };
    expect(info).toMatchObject({ sha256: sha(bytes), mime_type: "application/pdf" });
    const fetched = await api().fetchMedia(info.url);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get("content-disposition")).toMatch(/^attachment; filename="label.pdf"/);
    expect(sha(await fetched.arrayBuffer())).toBe(sha(bytes));

    const writer = uniquePhone();
    await contactWrites(t.sender, writer, "Can I have the label?");
    const sent = (await api().sendMessage(
      phoneNumberId(),
      writer.slice(1),
      new Document(id, true, "Label", "label.pdf"),
    )) as {
      messages?: { id: string }[];
      error?: unknown;
    };
    expect(sent.error).toBeUndefined();
    expect(await stored(sent.messages?.[0]?.id ?? "")).toMatchObject({ type: "document", mediaId: id });
    expect(reached(writer)).toEqual([sha(bytes)]);
    expect(await api().deleteMedia(id)).toEqual({ success: true });
  });
});

describe("the /graph mount", () => {
  it("serves only the provider's routes: anything else is the provider's 400", async () => {
    const other = await fetch(`${base}/graph/v24.0/${phoneNumberId()}/webhooks`, {
      headers: { Authorization: `Bearer ${t.globalToken}` },
    });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: { code: 100, type: "GraphMethodException" } });
    const noVersion = await fetch(`${base}/graph/${phoneNumberId()}/messages`, { method: "POST" });
    expect(noVersion.status).toBe(400);
  });
});
