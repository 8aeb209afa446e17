// One interface for the messaging provider (Meta WhatsApp Cloud API style), implemented by
// the HTTP client (http-client.ts) and the built-in simulator (simulator.ts).
import type { Readable } from "node:stream";

/** The sender as the provider knows it. */
export type ProviderSender = {
  phoneNumberId: string;
  phoneNumber: string;
  wabaId: string | null;
  /**
   * The limits the provider set for this number and its business account, as the service
   * learned them (lib/domains/senders/limits.ts); the simulator enforces them, the HTTP client
   * ignores them. Absent: the simulator's defaults.
   */
  throughputPerSecond?: number;
  /** Unique contacts per rolling 24 hours; null = unlimited. */
  messagingLimit?: number | null;
};

/** A Cloud API message body: { messaging_product, to, type, <type>: {...} }. */
export type ProviderMessagePayload = {
  messaging_product: "whatsapp";
  recipient_type?: "individual";
  to: string;
  type: string;
  [key: string]: unknown;
};

/** What only the simulator reads (the real provider knows the category from the template). */
export type SendHints = { pricingCategory?: string | null };

export type ProviderAccepted = { ok: true; messageId: string; waId: string };
export type ProviderRefused = {
  ok: false;
  /** Provider error code (130429, 131056, 131057, 132001, ...); 0 when none came back. */
  code: number;
  message: string;
  /** A retry of the same request may succeed (throughput signals, 5xx). */
  retryable: boolean;
  /** The request may have reached the provider (timeout, connection reset): never resend blindly. */
  ambiguous: boolean;
  httpStatus?: number;
  /** 130429: when the provider takes messages from this number again (its Retry-After). */
  retryAfterSeconds?: number;
};
export type ProviderSendOutcome = ProviderAccepted | ProviderRefused;
/** The provider's answer to a mark-as-read: `{success: true}`, or its refusal. */
export type ProviderReadOutcome = { ok: true } | ProviderRefused;

export type ProviderTemplate = {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  components: unknown[];
  qualityScore?: string | null;
  correctCategory?: string | null;
};

export type ProviderTemplateInput = {
  name: string;
  language: string;
  category: string;
  components: unknown[];
};

/** A file to upload to the provider for a sender (POST /{phoneNumberId}/media): its bytes streamed from the store. */
export type ProviderUpload = {
  mimeType: string;
  filename: string | null;
  /** Bytes. */
  size: number;
  /** Opens the bytes (a fresh stream per call). */
  open: () => Promise<Readable>;
};
/** The provider's media id of an upload, or its refusal. */
export type ProviderUploadOutcome = { ok: true; id: string } | ProviderRefused;

export type ProviderClient = ProviderMediaDownloads & {
  readonly kind: "simulator" | "http";
  sendMessage(sender: ProviderSender, payload: ProviderMessagePayload, hints?: SendHints): Promise<ProviderSendOutcome>;
  /**
   * The provider's mark-as-read of an inbound message (`{status: "read", message_id}`; the
   * provider marks the earlier ones of the chat read with it), with the typing indicator
   * (`typing_indicator: {type: "text"}`) when `typing` is set.
   */
  markRead(sender: ProviderSender, messageId: string, options?: { typing?: boolean }): Promise<ProviderReadOutcome>;
  listTemplates(sender: ProviderSender): Promise<ProviderTemplate[]>;
  createTemplate(sender: ProviderSender, input: ProviderTemplateInput): Promise<ProviderTemplate>;
  /**
   * The provider's phone number behind a phone number id (digits only), or null when the
   * provider does not know the id for our access token. The simulator answers null: in
   * simulator mode the service assigns the id itself (lib/domains/onboarding/connect-sender.ts).
   */
  phoneNumberOf(phoneNumberId: string): Promise<string | null>;
  /** Uploads a file for the sender's number; sends name it by the id answered (docs/media.md "Sending media"). */
  uploadMedia(sender: ProviderSender, file: ProviderUpload): Promise<ProviderUploadOutcome>;
};

/** The provider's description of a media id (`GET /{mediaId}`): where its bytes are, what they are. */
export type ProviderMediaDescription = {
  /** A download link valid a few minutes, fetched with the sender's credentials. */
  url: string;
  mimeType: string | null;
  sha256: string | null;
  fileSize: number | null;
};

/** Inbound media downloads (docs/media.md "Inbound media"): the provider's `GET /{mediaId}`, then its `url`. */
export type ProviderMediaDownloads = {
  /** Throws ProviderMediaError (media-error.ts): permanent when the provider does not know the id. */
  describeMedia(sender: ProviderSender, mediaId: string): Promise<ProviderMediaDescription>;
  /** The bytes behind a description's url, streamed; throws ProviderMediaError. */
  downloadMedia(sender: ProviderSender, url: string, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>>;
};
