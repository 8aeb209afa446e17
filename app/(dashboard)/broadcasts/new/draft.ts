// The new-broadcast form's state and its translation into the API's create input
// (BroadcastCreateInput): the form checks that input with the API's own schema before it
// counts or sends anything, and shows each problem under its field, said with the form's label.
import type { z } from "zod";
import type { FILTER_OPS, VARIABLE_SOURCES } from "@/lib/domains/broadcasts/schemas";
import { slotLabel } from "@/lib/domains/templates/fill";
import { type ParameterSlot, templateParameters } from "@/lib/domains/templates/parameters";
import { withFieldLabels } from "./field-labels";
import { zonedToUtc } from "./zoned-time";

export type FilterOp = (typeof FILTER_OPS)[number];
export type VariableSource = (typeof VARIABLE_SOURCES)[number];

export type FilterDraft = { key: number; field: string; op: FilterOp; value: string };
/** `source` "": not chosen yet; every variable must be mapped before a save or a start (none is guessed). */
export type MappingDraft = { source: VariableSource | ""; key: string; value: string; default: string };
export type ScheduleDraft = { when: "now" | "later"; date: string; time: string; zone: string };

export type FormDraft = {
  name: string;
  senderId: string;
  template: { name: string; language: string } | null;
  bookUids: string[];
  filters: FilterDraft[];
  /** A saved segment instead of books and filters (docs/automation.md "Segments"); "" or absent: books. */
  segmentUid?: string;
  /** By slot key ("body.0", "header.0"). */
  mappings: Record<string, MappingDraft>;
  schedule: ScheduleDraft;
  pace: string;
};

export const emptyMapping = (): MappingDraft => ({ source: "", key: "", value: "", default: "" });

/** A media header (image, video, document): one file for every recipient, a mediaId or an https link. */
export const isFileSlot = (s: Pick<ParameterSlot, "component" | "kind">) =>
  s.component === "header" && (s.kind === "image" || s.kind === "video" || s.kind === "document");

/** The template's parameters a broadcast maps (header and body, in order): text, and a media header's file. */
export function mappedSlots(components: unknown): ParameterSlot[] {
  return templateParameters(components).slots.filter(
    (s) => ((s.component === "body" || s.component === "header") && s.kind === "text") || isFileSlot(s),
  );
}

/**
 * A header file not named yet, for the live count only: a link that stands for it (the count
 * neither fetches nor sends it); the save and the start send "", refused under the field.
 */
const FILE_PLACEHOLDER = "https://example.com/header-file";

/**
 * A variable not mapped yet, for the live count and the samples only: its own placeholder as
 * fixed text ("{{1}}"), so the audience is counted (nobody misses it) and the samples show it
 * unfilled. The save and the start send "" instead, which the schema refuses under the field.
 */
const placeholderFor = (s: ParameterSlot) => ({ source: "constant" as const, value: `{{${s.variable}}}` });

function mappingOf(m: MappingDraft) {
  return {
    source: m.source,
    ...(m.source === "field" && m.key ? { key: m.key } : {}),
    ...(m.source === "constant" ? { value: m.value } : {}),
    ...(m.default.trim() !== "" ? { default: m.default } : {}),
  };
}

/** The schedule as the stored UTC instant: null for now, "" for a date and time not filled in. */
export function scheduledAtOf(s: ScheduleDraft): string | null {
  if (s.when === "now") return null;
  return zonedToUtc(s.date, s.time, s.zone) ?? "";
}

/**
 * The create input (unchecked): what the schema and the server action take; `forCount`: the
 * live count's, where a variable not mapped yet stands as its placeholder.
 */
export function inputOf(d: FormDraft, slots: ParameterSlot[], forCount = false) {
  const pace = d.pace.trim();
  const variable = (s: ParameterSlot) => {
    const m = d.mappings[`${s.component}.${s.index}`] ?? emptyMapping();
    if (isFileSlot(s)) {
      const value = m.value.trim();
      return { source: "constant" as const, value: value === "" && forCount ? FILE_PLACEHOLDER : value };
    }
    return m.source === "" && forCount ? placeholderFor(s) : mappingOf(m);
  };
  return {
    name: d.name,
    template: d.template ?? { name: "", language: "" },
    audience: d.segmentUid
      ? { segmentUid: d.segmentUid }
      : {
          contactBookUids: d.bookUids,
          filters: d.filters.map((f) => ({
            field: f.field,
            op: f.op,
            ...(f.op === "exists" ? {} : { value: f.value }),
          })),
        },
    variables: {
      body: slots.filter((s) => s.component === "body").map(variable),
      header: slots.filter((s) => s.component === "header").map(variable),
    },
    scheduledAt: scheduledAtOf(d.schedule),
    maxPerSecond: pace === "" ? null : Number(pace),
  };
}

const FILE_MISSING = "Header file: upload one, or enter its mediaId or an https link";

/** A media header left without its file (the schema takes any text; the server wants a mediaId or a link). */
export function fileErrors(d: FormDraft, slots: ParameterSlot[]): Record<string, string> {
  const slot = slots.find(isFileSlot);
  if (!slot) return {};
  const value = (d.mappings[`${slot.component}.${slot.index}`]?.value ?? "").trim();
  return /^(med_\S+|https:\/\/\S+)$/.test(value) ? {} : { "variables.header.0.value": FILE_MISSING };
}

/**
 * The schema's issues by field path ("audience.filters.0.value"), the first per field, with the
 * form's labels; a variable not mapped is named by its slot ("Body {{2}}").
 */
export function errorsOf(issues: readonly z.core.$ZodIssue[], slots: ParameterSlot[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const path = issue.path.join(".");
    out[path] ??= say(path, issue.message, slots);
  }
  return out;
}

function say(path: string, message: string, slots: ParameterSlot[]): string {
  const unmapped = /^variables\.(body|header)\.(\d+)\.source$/.exec(path);
  if (unmapped) {
    const slot = slots.find((s) => s.component === unmapped[1] && s.index === Number(unmapped[2]));
    return `${slot ? slotLabel(slot) : "This variable"}: choose where its value comes from`;
  }
  if (path === "scheduledAt") return "Start time: pick a date and a time";
  if (path === "name") return message.replace(/^name\b/, "Name");
  if (path === "audience") return "Contact books: choose at least one";
  if (path === "audience.segmentUid") return "Segment: choose one of the account's segments";
  if (/^variables\.\w+\.\d+\.key$/.test(path)) return "Custom field: choose the field the value comes from";
  if (path === "variables.header.0.value" && slots.some(isFileSlot)) return FILE_MISSING;
  if (/^variables\.\w+\.\d+\.value$/.test(path)) return "Text: enter the value every contact gets";
  return withFieldLabels(message);
}
