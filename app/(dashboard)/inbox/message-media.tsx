"use client";
// A message's file in its bubble (docs/inbox.md "Media"): images and stickers inline (lazy,
// with alt text) opening a full view, video and audio with the browser's players (voice notes
// play in place), documents as a card with name, size and download; a file still being
// fetched shows a placeholder until the thread's refetch brings it (the live stream), and an
// unavailable or expired one says so. The bytes come through the member's session.
import { useId, useRef } from "react";
import { buttonSecondary, link } from "@/components/ui/classes";
import {
  absentFileText,
  altText,
  contentUrl,
  documentType,
  formatFileSize,
  kindLabel,
  type ThreadMedia,
} from "./media-format";

export function MessageMedia({ media, outbound, voice }: { media: ThreadMedia; outbound: boolean; voice: boolean }) {
  const absent = absentFileText(media, voice);
  if (absent) {
    return (
      <p
        className={`flex min-h-16 min-w-48 items-center rounded-md border border-dashed px-3 py-2 text-sm italic ${
          media.status === "pending"
            ? "animate-pulse border-slate-400 text-slate-700 dark:border-slate-500 dark:text-slate-200"
            : "border-slate-400 text-slate-700 dark:border-slate-500 dark:text-slate-200"
        }`}
        data-testid="media-absent"
        data-media-status={media.status}
        aria-busy={media.status === "pending" || undefined}
      >
        {absent}
      </p>
    );
  }
  const src = contentUrl(media.mediaId);
  switch (media.kind) {
    case "image":
    case "sticker":
      return <InlineImage media={media} src={src} outbound={outbound} />;
    case "video":
      return (
        // biome-ignore lint/a11y/useMediaCaption: a contact's recording comes with no captions; its caption text shows below it
        <video
          controls
          preload="metadata"
          src={src}
          className="max-h-72 w-full rounded-md bg-black"
          data-testid="media-video"
        >
          <a href={src} className={link}>
            Download the video
          </a>
        </video>
      );
    case "audio":
      return (
        <figure className="w-64 max-w-full space-y-1" data-testid="media-audio">
          <figcaption className="text-xs font-medium text-slate-700 dark:text-slate-200">
            {kindLabel("audio", voice)}
            {media.fileSize !== null ? ` · ${formatFileSize(media.fileSize)}` : ""}
          </figcaption>
          {/* biome-ignore lint/a11y/useMediaCaption: a voice note has no captions to offer */}
          <audio
            controls
            preload="metadata"
            src={src}
            className="w-full max-w-72"
            aria-label={kindLabel("audio", voice)}
          />
        </figure>
      );
    case "document":
      return <DocumentCard media={media} src={src} />;
  }
}

function InlineImage({ media, src, outbound }: { media: ThreadMedia; src: string; outbound: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const alt = altText(media, outbound);
  const sticker = media.kind === "sticker";
  return (
    <>
      <button
        type="button"
        className="block rounded-md focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-600"
        onClick={() => dialog.current?.showModal()}
        aria-haspopup="dialog"
        aria-label={`${alt}: open full size`}
        data-testid="media-image"
      >
        <img
          src={src}
          alt={alt}
          loading="lazy"
          decoding="async"
          className={sticker ? "h-32 w-32 object-contain" : "max-h-64 w-auto max-w-full rounded-md object-contain"}
        />
      </button>
      <dialog
        ref={dialog}
        aria-labelledby={titleId}
        className="m-auto max-h-[95vh] max-w-[95vw] rounded-lg bg-white p-3 text-slate-900 shadow-xl backdrop:bg-black/70 dark:bg-slate-900 dark:text-slate-100"
      >
        <div className="mb-2 flex items-center justify-between gap-3">
          <h2 id={titleId} className="min-w-0 truncate text-sm font-semibold">
            {alt}
          </h2>
          <div className="flex shrink-0 gap-2">
            <a href={src} download className={buttonSecondary}>
              Download
            </a>
            <button type="button" className={buttonSecondary} onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
        </div>
        <img src={src} alt={alt} className="max-h-[80vh] max-w-full object-contain" data-testid="media-full" />
      </dialog>
    </>
  );
}

function DocumentCard({ media, src }: { media: ThreadMedia; src: string }) {
  const name = media.filename ?? `${documentType(media.mimeType)} document`;
  const size = media.fileSize !== null ? formatFileSize(media.fileSize) : null;
  return (
    <div
      className="flex min-w-0 items-center gap-3 rounded-md border border-slate-300 bg-white/70 px-3 py-2 dark:border-slate-600 dark:bg-slate-900/60"
      data-testid="media-document"
    >
      <span
        aria-hidden="true"
        className="flex h-10 w-9 shrink-0 items-center justify-center rounded bg-red-100 text-[10px] font-bold text-red-900 dark:bg-red-950 dark:text-red-100"
      >
        {documentType(media.mimeType).slice(0, 4).toUpperCase()}
      </span>
      <div className="min-w-0 flex-1">
        <p className="truncate text-sm font-medium" title={name}>
          {name}
        </p>
        <p className="text-xs text-slate-700 dark:text-slate-300">
          {documentType(media.mimeType)}
          {size ? ` · ${size}` : ""}
        </p>
      </div>
      <a
        href={src}
        download={media.filename ?? true}
        className={`${link} shrink-0 text-sm`}
        aria-label={`Download ${name}${size ? ` (${size})` : ""}`}
      >
        Download
      </a>
    </div>
  );
}
