import { describe, expect, it } from "vitest";
import { tooLargeMessage, unsupportedTypeMessage } from "@/lib/domains/media/kinds";
import { checkAttachment, declaredType } from "./attachment";

describe("the reply box's check of a file, before any upload", () => {
  it("refuses a file past its kind's limit with the API's words", () => {
    expect(checkAttachment({ name: "huge.png", type: "image/png", size: 6_000_000 })).toEqual({
      ok: false,
      message: tooLargeMessage("image", 5_000_000),
    });
    expect(checkAttachment({ name: "film.mp4", type: "video/mp4", size: 16_000_001 })).toEqual({
      ok: false,
      message: "This video is larger than 16 MB, the largest video the provider takes",
    });
    expect(checkAttachment({ name: "ok.png", type: "image/png", size: 5_000_000 })).toEqual({
      ok: true,
      kind: "image",
      mimeType: "image/png",
    });
  });

  it("refuses a type outside the provider's table with the API's words", () => {
    expect(checkAttachment({ name: "cat.gif", type: "image/gif", size: 1_000 })).toEqual({
      ok: false,
      message: unsupportedTypeMessage("image/gif"),
    });
    expect(checkAttachment({ name: "clip.mov", type: "video/quicktime", size: 1_000 }).ok).toBe(false);
  });

  it("reads the type a browser gives (aliases as the API reads them), else the extension; an unknown one goes to the server", () => {
    expect(declaredType({ name: "a.jpg", type: "image/jpg" })).toBe("image/jpeg");
    expect(declaredType({ name: "note.m4a", type: "audio/x-m4a" })).toBe("audio/mp4");
    expect(declaredType({ name: "Report.DOCX", type: "" })).toBe(
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    );
    expect(declaredType({ name: "data", type: "application/octet-stream" })).toBeNull();
    expect(checkAttachment({ name: "data", type: "", size: 10 })).toEqual({ ok: true, kind: null, mimeType: null });
  });

  it("holds a sticker to the animated limit (only its bytes say which) and refuses an empty file", () => {
    expect(checkAttachment({ name: "s.webp", type: "image/webp", size: 400_000 }).ok).toBe(true);
    expect(checkAttachment({ name: "s.webp", type: "image/webp", size: 500_001 })).toEqual({
      ok: false,
      message: tooLargeMessage("sticker", 500_000),
    });
    expect(checkAttachment({ name: "empty.pdf", type: "application/pdf", size: 0 })).toEqual({
      ok: false,
      message: "The file is empty",
    });
  });
});
