"use client";
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { DataTable } from "@/components/dashboard/data-table";
import { useToast } from "@/components/dashboard/toast";
import { button, input, label, td } from "@/components/ui/classes";
import { countOf } from "@/lib/core/count";
import { dashboardApi } from "@/lib/dashboard/client";
import {
  customFieldOfColumn,
  guessMapping,
  mapRows,
  type ParsedFile,
  parseContactFile,
  previewCell,
} from "./parse-file";
import { newUploadId, type UploadChunk, type UploadReport, uploadInChunks } from "./upload-in-chunks";

type Field = { key: string; label: string; type: string };

const postChunk = (bookUid: string, chunk: UploadChunk) => dashboardApi.contactChunk(bookUid, chunk);

/** File -> preview -> column mapping -> upload in chunks with progress -> per-row report. */
export function BulkUpload({ bookUid, fields }: { bookUid: string; fields: Field[] }) {
  const toast = useToast();
  const router = useRouter();
  const [file, setFile] = useState<ParsedFile | null>(null);
  const [mapping, setMapping] = useState<Record<string, string>>({});
  const [progress, setProgress] = useState(0);
  const [report, setReport] = useState<UploadReport | null>(null);

  async function onFile(e: React.ChangeEvent<HTMLInputElement>) {
    const f = e.target.files?.[0];
    setReport(null);
    setProgress(0);
    if (!f) return setFile(null);
    try {
      const parsed = await parseContactFile(f);
      setFile(parsed);
      setMapping(
        guessMapping(
          parsed.columns,
          fields.map((x) => x.key),
        ),
      );
    } catch (error) {
      setFile(null);
      toast.error(error instanceof Error ? error.message : "Could not read the file");
    }
  }

  const upload = useMutation({
    mutationFn: (parsed: ParsedFile) =>
      uploadInChunks({
        contacts: mapRows(parsed.rows, mapping),
        rowNumbers: parsed.rowNumbers,
        uploadId: newUploadId(),
        post: (chunk) => postChunk(bookUid, chunk),
        onProgress: setProgress,
      }),
    onSuccess: (r) => {
      setReport(r);
      if (r.failed) toast.error(`${countOf(r.failed, "row")} not stored; see the report`);
      else toast.success(`${countOf(r.created + r.updated, "contact")} stored`);
      router.refresh();
    },
    onError: (error) => toast.error(error instanceof Error ? error.message : "Upload failed"),
  });

  const hasPhone = Object.values(mapping).includes("phoneNumber");
  const fieldKeys = new Set(fields.map((f) => f.key));
  const unknownCustomField = (column: string) => {
    const key = customFieldOfColumn(column);
    return key && !fieldKeys.has(key) ? key : null;
  };
  return (
    <div className="space-y-4">
      <div>
        <label htmlFor="contact-file" className={label}>
          CSV or JSON file
        </label>
        <input
          id="contact-file"
          type="file"
          accept=".csv,.json,text/csv,application/json"
          onChange={onFile}
          className={input}
        />
      </div>
      {file && (
        <>
          <p className="text-sm">
            {countOf(file.rows.length, "row")}, {countOf(file.columns.length, "column")}. Preview of the first rows:
          </p>
          <DataTable
            label="File preview"
            caption="File preview"
            columns={file.columns.map((c) => ({ key: c, label: c }))}
            rowCount={file.rows.length}
            empty={null}
          >
            {file.rows.slice(0, 5).map((r, i) => (
              <tr key={i}>
                {file.columns.map((c) => (
                  <td key={c} className={td}>
                    {previewCell(r[c])}
                  </td>
                ))}
              </tr>
            ))}
          </DataTable>
          <fieldset className="grid gap-3 sm:grid-cols-3">
            <legend className={label}>Map columns to contact fields</legend>
            {file.columns.map((c) => (
              <div key={c}>
                <label htmlFor={`map-${c}`} className="text-sm">
                  Column “{c}”
                </label>
                <select
                  id={`map-${c}`}
                  value={mapping[c] ?? ""}
                  onChange={(e) => setMapping({ ...mapping, [c]: e.target.value })}
                  className={input}
                >
                  <option value="">Ignore</option>
                  <option value="phoneNumber">Phone number</option>
                  <option value="name">Name</option>
                  <option value="email">Email</option>
                  {fields.map((f) => (
                    <option key={f.key} value={`custom:${f.key}`}>
                      Custom: {f.label} ({f.type})
                    </option>
                  ))}
                </select>
                {unknownCustomField(c) && (
                  <p className="text-xs text-amber-800 dark:text-amber-300">
                    No custom field “{unknownCustomField(c)}” yet: add it under Contacts to keep this column.
                  </p>
                )}
              </div>
            ))}
          </fieldset>
          {!hasPhone && <p className="text-sm text-red-700 dark:text-red-300">Map one column to Phone number.</p>}
          <button
            type="button"
            className={button}
            disabled={!hasPhone || upload.isPending}
            onClick={() => {
              setReport(null);
              setProgress(0);
              upload.mutate(file);
            }}
          >
            {upload.isPending ? "Uploading…" : `Upload ${countOf(file.rows.length, "row")}`}
          </button>
        </>
      )}
      {(upload.isPending || progress > 0) && (
        <div>
          <label htmlFor="upload-progress" className="text-sm">
            Upload progress
          </label>
          <progress id="upload-progress" value={Math.round(progress * 100)} max={100} className="block w-full" />
        </div>
      )}
      {report && (
        <section aria-labelledby="upload-report" data-testid="upload-report">
          <h3 id="upload-report" className="font-semibold">
            Upload report
          </h3>
          <p className="text-sm">
            Received {report.received} · created {report.created} · updated {report.updated} · failed {report.failed}
          </p>
          {report.errors.length > 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400" data-testid="row-numbering">
              Rows are numbered as in the file: in a CSV the header is row 1 and the first contact row 2, as a
              spreadsheet shows them; in a JSON file, the first contact is row 1. A number that appears twice is kept
              from its first row.
            </p>
          ) : null}
          <DataTable
            label="Rows that were not stored"
            caption="Rows that were not stored"
            columns={[
              { key: "row", label: "Row" },
              { key: "error", label: "Error" },
              { key: "message", label: "Message" },
            ]}
            rowCount={report.errors.length}
            empty={null}
          >
            {report.errors.map((e) => (
              <tr key={e.index} data-testid="row-error">
                <td className={td}>{e.row}</td>
                <td className={`${td} font-mono text-xs`}>{e.error_code}</td>
                <td className={td}>{e.message}</td>
              </tr>
            ))}
          </DataTable>
        </section>
      )}
    </div>
  );
}
