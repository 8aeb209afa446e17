import { describe, expect, it } from "vitest";
import { absentFileText, altText, documentType, formatFileSize, isVoiceNote, mediaOf } from "./media-format";

describe("the thread's files", () => {
  it("sizes in decimal units, as the provider's limits are counted", () => {
    expect(formatFileSize(1)).toBe("1 byte");
    expect(formatFileSize(900)).toBe("900 bytes");
    expect(formatFileSize(1_500)).toBe("1.5 KB");
    expect(formatFileSize(48_213)).toBe("48 KB");
    expect(formatFileSize(5_000_000)).toBe("5 MB");
    expect(formatFileSize(1_234_567)).toBe("1.2 MB");
    expect(formatFileSize(99_999_999)).toBe("100 MB");
  });

  it("an image's alt text is its caption, else what it is and who sent it", () => {
    expect(altText({ kind: "image", caption: "The broken handle" }, false)).toBe("The broken handle");
    expect(altText({ kind: "image" }, false)).toBe("Photo from the contact");
    expect(altText({ kind: "sticker" }, true)).toBe("Sticker sent to the contact");
    expect(altText({ kind: "image", filename: "label.png" }, true)).toBe("Photo sent to the contact (label.png)");
  });

  it("says why a file is not shown, and nothing for a ready one", () => {
    expect(absentFileText({ kind: "image", status: "pending" })).toBe("Receiving the photo…");
    expect(absentFileText({ kind: "audio", status: "pending" }, true)).toBe("Receiving the voice note…");
    expect(
      absentFileText({ kind: "document", status: "unavailable", unavailableReason: "the provider answered 404" }),
    ).toBe("This document is unavailable: the provider answered 404");
    expect(absentFileText({ kind: "video", status: "expired" })).toMatch(/^This video has expired/);
    expect(absentFileText({ kind: "image", status: "ready" })).toBeNull();
  });

  it("reads the entry's file, a voice note and a document's type", () => {
    expect(mediaOf({ media: null })).toBeNull();
    const media = {
      mediaId: "med_1",
      kind: "image",
      mimeType: "image/png",
      sha256: null,
      fileSize: null,
      status: "ready",
    } as const;
    expect(mediaOf({ media })?.mediaId).toBe("med_1");
    expect(isVoiceNote({ type: "audio", content: { audio: { id: "1", voice: true } } })).toBe(true);
    expect(isVoiceNote({ type: "audio", content: { audio: { id: "1" } } })).toBe(false);
    expect(documentType("application/pdf")).toBe("PDF");
    expect(documentType("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")).toBe("Excel");
  });
});
