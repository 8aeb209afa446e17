// The simulator's inbound media (docs/media.md "Simulator and CLI"): the files its simulated
// contacts send, kept under DATA_DIR/simulator-media so every process of this deployment serves
// the same ones (`simulate:inbound --media` writes a file in the CLI's process; the app's media
// worker downloads it). As the provider: `GET /{mediaId}` describes a file with a link, and the
// link's bytes are the file. An unknown id is the provider's permanent error; a test may make
// the next downloads of an id fail (failDownloads).
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "@/lib/core/env";
import { numericId } from "./error-codes";
import { ProviderMediaError } from "./media-error";
import type { CallbackChange } from "./simulator-callbacks";
import { inboundMediaChange } from "./simulator-inbound";
import type { ProviderMediaDescription, ProviderMediaDownloads, ProviderSender } from "./types";

/** The simulator's download links (never fetched over the network: the simulator opens the file). */
const LINK_BASE = "https://lookaside.simulator.invalid/whatsapp_business/attachments/";

export type SimulatedMedia = { id: string; mimeType: string; sha256: string; fileSize: number };

const folder = () => path.join(env().DATA_DIR, "simulator-media");
const ID = /^\d{6,20}$/;
const fileOf = (id: string) => path.join(folder(), id);
const factsOf = (id: string) => path.join(folder(), `${id}.json`);

/** Keeps a file a simulated contact sends; its provider media id and facts (the callback announces them). */
export async function keepContactMedia(bytes: Buffer, mimeType: string): Promise<SimulatedMedia> {
  await fs.promises.mkdir(folder(), { recursive: true });
  const media: SimulatedMedia = {
    id: numericId(),
    mimeType,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    fileSize: bytes.length,
  };
  await fs.promises.writeFile(fileOf(media.id), bytes);
  await fs.promises.writeFile(factsOf(media.id), JSON.stringify(media));
  return media;
}

async function factsFor(id: string): Promise<SimulatedMedia | null> {
  if (!ID.test(id)) return null;
  try {
    return JSON.parse(await fs.promises.readFile(factsOf(id), "utf8")) as SimulatedMedia;
  } catch {
    return null;
  }
}

const unknown = (id: string) =>
  new ProviderMediaError(`(#100) Invalid parameter: media ${id.slice(0, 40)} does not exist or expired`, true);

/** The simulator's downloads; `failures` holds how many of the next attempts per id fail (test hooks). */
export function simulatedMediaDownloads(failures: Map<string, number>): ProviderMediaDownloads {
  const failing = (id: string) => {
    const left = failures.get(id) ?? 0;
    if (left <= 0) return false;
    failures.set(id, left - 1);
    return true;
  };
  return {
    async describeMedia(_sender, mediaId): Promise<ProviderMediaDescription> {
      const media = await factsFor(mediaId);
      if (!media) throw unknown(mediaId);
      if (failing(mediaId)) throw new ProviderMediaError("Service temporarily unavailable (simulated)", false);
      return {
        url: `${LINK_BASE}${media.id}?ext=${randomBytes(6).toString("hex")}`,
        mimeType: media.mimeType,
        sha256: media.sha256,
        fileSize: media.fileSize,
      };
    },
    async downloadMedia(_sender, url): Promise<AsyncIterable<Uint8Array>> {
      const id = url.startsWith(LINK_BASE) ? (url.slice(LINK_BASE.length).split("?")[0] ?? "") : "";
      if (!(await factsFor(id))) throw new ProviderMediaError("The download link is not the provider's", true);
      const delay = env().SIMULATOR_MEDIA_DELAY_MS;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      return fs.createReadStream(fileOf(id));
    },
  };
}

const PHOTO_CAPTIONS = ["This is what arrived", "The box was damaged", "Is this the right one?", "Here you go"];

/** A simulated contact answers with a photo (a small JPEG of a random colour), kept and announced as the provider does. */
export async function contactPhotoChange(sender: ProviderSender, from: string): Promise<CallbackChange> {
  const { default: sharp } = await import("sharp");
  const [r, g, b] = [...randomBytes(3)];
  const bytes = await sharp({ create: { width: 320, height: 240, channels: 3, background: { r, g, b } } })
    .jpeg()
    .toBuffer();
  const media = await keepContactMedia(bytes, "image/jpeg");
  const caption = PHOTO_CAPTIONS[Math.floor(Math.random() * PHOTO_CAPTIONS.length)];
  return inboundMediaChange(sender, {
    from,
    kind: "image",
    media: { id: media.id, mime_type: media.mimeType, sha256: media.sha256, ...(caption ? { caption } : {}) },
  });
}
