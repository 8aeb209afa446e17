"use client";
// The reply box's one attached file (docs/inbox.md "Attaching a file"): picked with the
// button, dropped on the box or pasted into it; checked in the browser (attachment.ts), then
// uploaded at once with its progress shown, so Send only sends it by id. Removing it aborts
// the upload. The chip shows a thumbnail of an image, the name, the size and the progress.
import { type ClipboardEvent, type DragEvent, useEffect, useRef, useState } from "react";
import { buttonSecondary } from "@/components/ui/classes";
import { type AttachmentCheck, checkAttachment, type UploadedMedia, uploadAttachment } from "./attachment";
import { formatFileSize, kindLabel } from "./media-format";

type Attached = {
  file: File;
  kind: Extract<AttachmentCheck, { ok: true }>["kind"];
  /** An object URL of an image or sticker, for its thumbnail. */
  preview: string | null;
  progress: number;
  uploaded: UploadedMedia | null;
  error: string | null;
  abort: AbortController;
};

export function useAttachment(senderId: string) {
  const [attached, setAttached] = useState<Attached | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const current = useRef<Attached | null>(null);
  current.current = attached;

  const drop = () => {
    const a = current.current;
    if (a) {
      a.abort.abort();
      if (a.preview) URL.revokeObjectURL(a.preview);
    }
    setAttached(null);
  };
  // Leaving the conversation drops what was attached.
  useEffect(() => () => drop(), []);

  const attach = (file: File) => {
    drop();
    const check = checkAttachment(file);
    if (!check.ok) {
      setRefusal(check.message);
      return;
    }
    setRefusal(null);
    const kind = check.kind;
    const preview = kind === "image" || kind === "sticker" ? URL.createObjectURL(file) : null;
    const next: Attached = {
      file,
      kind,
      preview,
      progress: 0,
      uploaded: null,
      error: null,
      abort: new AbortController(),
    };
    setAttached(next);
    const update = (patch: Partial<Attached>) =>
      setAttached((a) => (a && a.abort === next.abort ? { ...a, ...patch } : a));
    uploadAttachment(file, senderId, (progress) => update({ progress }), next.abort.signal).then(
      (uploaded) => update({ uploaded, kind: uploaded.kind, progress: 1 }),
      (error: unknown) => {
        if (error instanceof DOMException && error.name === "AbortError") return;
        update({ error: error instanceof Error ? error.message : "The upload failed" });
      },
    );
  };

  const fromList = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) attach(file);
    return Boolean(file);
  };

  /** Handlers for the element files are dropped on. */
  const dropZone = {
    onDragOver: (e: DragEvent) => {
      if (!e.dataTransfer.types.includes("Files")) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
      setDragging(true);
    },
    onDragLeave: (e: DragEvent) => {
      if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (e: DragEvent) => {
      setDragging(false);
      if (e.dataTransfer.files.length === 0) return;
      e.preventDefault();
      fromList(e.dataTransfer.files);
    },
  };

  /** A pasted file (a screenshot) is attached; pasted text is typed as usual. */
  const onPaste = (e: ClipboardEvent) => {
    if (e.clipboardData.files.length > 0 && fromList(e.clipboardData.files)) e.preventDefault();
  };

  return {
    attached,
    refusal,
    dragging,
    dropZone,
    onPaste,
    fromList,
    remove: () => {
      drop();
      setRefusal(null);
    },
    /** The file is up and may be sent. */
    ready: attached?.uploaded ?? null,
    uploading: attached !== null && attached.uploaded === null && attached.error === null,
  };
}

export type AttachmentState = ReturnType<typeof useAttachment>;

/** The attached file: thumbnail or kind, name, size, the upload's progress or failure, and Remove. */
export function AttachmentChip({ state, disabled }: { state: AttachmentState; disabled: boolean }) {
  const a = state.attached;
  if (!a) return null;
  const percent = Math.round(a.progress * 100);
  return (
    <div
      className="flex min-w-0 items-center gap-3 rounded-md border border-slate-300 bg-slate-50 p-2 dark:border-slate-600 dark:bg-slate-800"
      data-testid="attachment"
    >
      {a.preview ? (
        <img src={a.preview} alt="" className="h-12 w-12 shrink-0 rounded object-cover" />
      ) : (
        <span
          aria-hidden="true"
          className="flex h-12 w-12 shrink-0 items-center justify-center rounded bg-slate-200 text-xs font-semibold text-slate-800 dark:bg-slate-700 dark:text-slate-100"
        >
          {a.kind ? kindLabel(a.kind).slice(0, 5) : "File"}
        </span>
      )}
      <div className="min-w-0 flex-1 space-y-1">
        <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100" title={a.file.name}>
          {a.file.name}
        </p>
        {a.error ? (
          <p role="alert" className="text-xs text-red-700 dark:text-red-300">
            {a.error}
          </p>
        ) : (
          <div className="flex items-center gap-2">
            <progress
              className="h-2 w-full max-w-48 accent-indigo-700"
              max={100}
              value={percent}
              aria-label={`Uploading ${a.file.name}`}
              data-testid="upload-progress"
            />
            <span className="shrink-0 text-xs text-slate-700 dark:text-slate-300" data-testid="upload-state">
              {a.uploaded ? `Ready · ${formatFileSize(a.file.size)}` : `${percent}% of ${formatFileSize(a.file.size)}`}
            </span>
          </div>
        )}
      </div>
      <button type="button" className={buttonSecondary} onClick={state.remove} disabled={disabled}>
        Remove<span className="sr-only"> attachment {a.file.name}</span>
      </button>
    </div>
  );
}
