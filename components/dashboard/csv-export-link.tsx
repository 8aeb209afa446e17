"use client";
import { useState } from "react";
import { buttonSecondary } from "@/components/ui/classes";
// "Export CSV" with visible progress: the link still works without script, but a click
// reads the streamed CSV (GET /api/dashboard/billing/export, lib/api/dashboard-routes/exports.ts) chunk by chunk, shows the rows
// received against the total the page already knows, and then saves the file.
import { countOf, formatCount } from "@/lib/core/count";

type Progress = { rows: number; bytes: number } | null;

const NEWLINE = 0x0a;

function countLines(chunk: Uint8Array): number {
  let n = 0;
  for (const byte of chunk) if (byte === NEWLINE) n++;
  return n;
}

/** The file name of a Content-Disposition: attachment answer, else the fallback. */
function fileNameOf(res: Response, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(res.headers.get("Content-Disposition") ?? "");
  return match?.[1] ?? fallback;
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function CsvExportLink({
  href,
  totalRows,
  label = "Export CSV",
}: {
  href: string;
  totalRows: number;
  label?: string;
}) {
  const [progress, setProgress] = useState<Progress>(null);
  const [error, setError] = useState<string | null>(null);

  const run = async () => {
    setError(null);
    setProgress({ rows: 0, bytes: 0 });
    try {
      const res = await fetch(href);
      if (!res.ok || !res.body) throw new Error(`the server answered ${res.status}`);
      const reader = res.body.getReader();
      const parts: Uint8Array[] = [];
      let lines = 0;
      let bytes = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        lines += countLines(value);
        bytes += value.byteLength;
        // The first line is the header.
        setProgress({ rows: Math.max(0, lines - 1), bytes });
      }
      save(new Blob(parts as BlobPart[], { type: "text/csv;charset=utf-8" }), fileNameOf(res, "export.csv"));
    } catch (e) {
      setError(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setProgress(null);
    }
  };

  const max = Math.max(totalRows, progress?.rows ?? 0);
  return (
    <div className="flex flex-wrap items-center gap-3">
      {progress ? (
        <div className="flex items-center gap-2 text-sm" data-testid="export-progress">
          <progress className="h-2 w-32" max={max || 1} value={progress.rows} aria-label="Export progress" />
          <span aria-live="polite">
            Preparing… {formatCount(progress.rows)} of {countOf(totalRows, "row")}
          </span>
        </div>
      ) : null}
      {error ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <a
        href={href}
        download
        className={buttonSecondary}
        aria-disabled={progress ? true : undefined}
        onClick={(e) => {
          e.preventDefault();
          if (!progress) void run();
        }}
      >
        {progress ? "Exporting…" : label}
      </a>
    </div>
  );
}
