// The OpenAPI examples of the media routes (docs/openapi.md "Adding a route"): one sample
// file, through the serializers the routes answer with.
import { exampleTime, SAMPLE_CUSTOMER_ID } from "@/lib/core/examples";
import { sampleSender } from "@/lib/domains/senders/samples";
import { type MediaRow, toPublicMedia } from "./serializers";

const sampleMediaRow: MediaRow = {
  id: "med_5f0c9a3e7b214d6c8e1f2a3b4c5d6e7f",
  customerId: SAMPLE_CUSTOMER_ID,
  senderId: sampleSender.id,
  senderPhoneNumber: sampleSender.phoneNumber,
  kind: "image",
  mimeType: "image/jpeg",
  sha256: "9b74c9897bac770ffc029102a200c5de5f9b1c4b1d6d8a3c6c1f4e0a7b2d3e4f",
  fileSize: 184_320,
  filename: "broken-handle.jpg",
  source: "upload",
  status: "ready",
  unavailableReason: null,
  createdAt: exampleTime(),
  expiresAt: exampleTime(365 * 86_400),
};
const sample = toPublicMedia(sampleMediaRow);
/** The sample file's id, as the send examples name it (docs/media.md "Sending media"). */
export const SAMPLE_MEDIA_ID = sampleMediaRow.id;
const params = { mediaId: sampleMediaRow.id };

export const postMedia = {
  form: { type: "image/jpeg", senderId: sampleSender.phoneNumber },
  message: "Media stored",
  response: sample,
};

export const getMedia = { params, message: "Media retrieved", response: sample };

export const getMediaContent = { params, response: undefined };

export const deleteMedia = {
  params,
  message: "Media deleted",
  response: { mediaId: sampleMediaRow.id, deleted: true },
} as const;

export const postByPhoneNumberIdMedia = {
  params: { phoneNumberId: sampleSender.phoneNumberId ?? "" },
  form: { type: "image/jpeg", messaging_product: "whatsapp" },
  response: { id: sampleMediaRow.id },
} as const;

export const getProviderMedia = {
  params: { id: sampleMediaRow.id },
  response: {
    messaging_product: "whatsapp",
    url: `https://switchboard.example.com/api/v3/media/${sampleMediaRow.id}/content?expires=1795381847&signature=Jm3c0aQ1x8Zb7Yk2Lp4tNw9Rv6Eu5Ds1Fg3Hh8Ij0Kl`,
    mime_type: sampleMediaRow.mimeType,
    sha256: sampleMediaRow.sha256 ?? "",
    file_size: String(sampleMediaRow.fileSize),
    id: sampleMediaRow.id,
  },
} as const;

export const deleteProviderMedia = { params: { id: sampleMediaRow.id }, response: { success: true } } as const;
