// The simulator's media uploads (the provider's POST /{phoneNumberId}/media, docs/media.md
// "Sending media"): it reads the whole stream, keeps each upload's sha256, size and type under
// a provider-style id for the number it was uploaded for, and looks up the ids sends name, so
// a test can compare the sha256 of what "reached the phone" with the file it sent.
import { createHash } from "node:crypto";
import { numericId } from "./error-codes";
import type { ProviderMessagePayload, ProviderSender, ProviderUpload, ProviderUploadOutcome } from "./types";

export type SimulatedUpload = {
  id: string;
  phoneNumberId: string;
  sha256: string;
  size: number;
  mimeType: string;
  filename: string | null;
};

/** The provider's "media upload error" (an id it does not hold for this number). */
export const MEDIA_UPLOAD_ERROR = 131053;
const KEPT = 10_000;
const MEDIA_PARTS = ["image", "video", "audio", "document", "sticker"];

export class SimulatorUploads {
  /** Uploads by id, oldest first (bounded). */
  readonly byId = new Map<string, SimulatedUpload>();

  async upload(sender: ProviderSender, file: ProviderUpload): Promise<ProviderUploadOutcome> {
    const hash = createHash("sha256");
    let size = 0;
    for await (const chunk of await file.open()) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    if (size !== file.size) {
      const message = `Media upload error: ${size} bytes received, ${file.size} declared`;
      return { ok: false, code: MEDIA_UPLOAD_ERROR, message, retryable: false, ambiguous: false, httpStatus: 400 };
    }
    const id = numericId();
    const upload = {
      id,
      phoneNumberId: sender.phoneNumberId,
      sha256: hash.digest("hex"),
      size,
      mimeType: file.mimeType,
    };
    this.byId.set(id, { ...upload, filename: file.filename });
    if (this.byId.size > KEPT) this.byId.delete(this.byId.keys().next().value ?? "");
    return { ok: true, id };
  }

  /** The uploads a send names (its media part's id, a template header's), or the first id this number does not hold. */
  named(sender: ProviderSender, payload: ProviderMessagePayload): { media: SimulatedUpload[]; unknown?: string } {
    const media: SimulatedUpload[] = [];
    for (const id of mediaIdsOf(payload)) {
      const upload = this.byId.get(id);
      if (!upload || upload.phoneNumberId !== sender.phoneNumberId) return { media, unknown: id };
      media.push(upload);
    }
    return { media };
  }
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null;

/** The media ids a provider body names: its media part's, and a template's header parameters'. */
function mediaIdsOf(payload: ProviderMessagePayload): string[] {
  const ids: string[] = [];
  const idIn = (part: unknown) => {
    if (isObj(part) && typeof part.id === "string") ids.push(part.id);
  };
  if (MEDIA_PARTS.includes(payload.type)) idIn(payload[payload.type]);
  const components = isObj(payload.template) ? payload.template.components : undefined;
  for (const c of Array.isArray(components) ? components : []) {
    for (const p of isObj(c) && Array.isArray(c.parameters) ? c.parameters : []) {
      if (isObj(p) && typeof p.type === "string" && MEDIA_PARTS.includes(p.type)) idIn(p[p.type]);
    }
  }
  return ids;
}
