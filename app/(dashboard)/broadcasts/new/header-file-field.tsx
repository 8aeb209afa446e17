"use client";
// A template's media header in a broadcast (docs/broadcasts.md "Media headers"): one file for
// every recipient, named by a mediaId (typed, or uploaded here for the broadcast's sender with
// its progress, checked in the browser as the inbox checks an attachment) or an https link.
// The broadcast maps it once (one upload to the provider when it starts).
import { useId, useRef, useState } from "react";
import { input, label, muted } from "@/components/ui/classes";
import { errorProps, FieldMessage } from "@/components/ui/field-message";
import { checkAttachment, uploadAttachment } from "../../inbox/attachment";
import { formatFileSize } from "../../inbox/media-format";

const KIND_WORD: Record<string, string> = { image: "image", video: "video", document: "document" };

type Props = {
  /** The header's kind: image, video or document. */
  kind: string;
  senderId: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
};

export function HeaderFileField({ kind, senderId, value, onChange, error }: Props) {
  const id = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [upload, setUpload] = useState<{ name: string; progress: number } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const word = KIND_WORD[kind] ?? "file";

  async function send(file: File) {
    setRefusal(null);
    setNote(null);
    const check = checkAttachment(file);
    if (!check.ok) return setRefusal(check.message);
    if (check.kind && check.kind !== kind)
      return setRefusal(`The header takes a ${word}; this file is a ${check.kind}`);
    setUpload({ name: file.name, progress: 0 });
    try {
      const media = await uploadAttachment(file, senderId, (progress) => setUpload({ name: file.name, progress }));
      if (media.kind !== kind) return setRefusal(`The header takes a ${word}; this file is a ${media.kind}`);
      onChange(media.mediaId);
      setNote(`${media.filename ?? file.name} (${formatFileSize(media.fileSize)}) uploaded`);
    } catch (e) {
      setRefusal(e instanceof Error ? e.message : "The upload failed");
    } finally {
      setUpload(null);
      if (fileInput.current) fileInput.current.value = "";
    }
  }

  const shown = refusal ?? error;
  return (
    <div className="space-y-2" data-testid="header-file">
      <label htmlFor={`${id}-value`} className={label}>
        Header {word}: a mediaId or an https link
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          id={`${id}-value`}
          className={`${input} min-w-0 flex-1`}
          value={value}
          placeholder="med_… or https://…"
          onChange={(e) => {
            setNote(null);
            onChange(e.target.value);
          }}
          {...errorProps(`${id}-value`, shown)}
        />
        <input
          ref={fileInput}
          id={`${id}-file`}
          type="file"
          className="sr-only"
          aria-label={`Upload the header ${word}`}
          disabled={!senderId || upload !== null}
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (file) void send(file);
          }}
        />
        <label
          htmlFor={`${id}-file`}
          className="cursor-pointer rounded-md border border-slate-400 px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:border-slate-500 dark:hover:bg-slate-800"
        >
          Upload a {word}
        </label>
      </div>
      {upload ? (
        <progress className="w-full" aria-label={`Uploading ${upload.name}`} max={1} value={upload.progress} />
      ) : null}
      {note ? (
        <p className={muted} role="status">
          {note}
        </p>
      ) : null}
      <FieldMessage inputId={`${id}-value`} message={shown} />
      <p className={muted}>One file for every recipient: it is sent to the provider once when the broadcast starts.</p>
    </div>
  );
}
