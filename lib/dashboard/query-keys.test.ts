// The one module of query keys (lib/dashboard/query-keys.ts): each family's key is a prefix of
// its longer keys (what invalidation relies on), and no page or component spells a key itself.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { queryKeys } from "./query-keys";

/** `queryKey: [` (or `queryKey:[`): a key written as a literal array rather than taken from queryKeys. */
const LITERAL_KEY = /queryKey\s*:\s*\[/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

function literalKeysIn(text: string): number[] {
  return [...text.matchAll(LITERAL_KEY)].map((m) => text.slice(0, m.index).split("\n").length);
}

describe("queryKeys", () => {
  it("a shorter call is the prefix of a longer one (invalidating it reaches them)", () => {
    expect(queryKeys.conversation()).toEqual(["conversation"]);
    expect(queryKeys.conversation("conv_1")).toEqual(["conversation", "conv_1"]);
    expect(queryKeys.conversation("conv_1", 2)).toEqual(["conversation", "conv_1", 2]);
    expect(queryKeys.inbox()).toEqual(["inbox"]);
    expect(queryKeys.inbox("status=OPEN")).toEqual(["inbox", "status=OPEN"]);
    expect(queryKeys.unread()).toEqual(["unread"]);
    expect(queryKeys.unread("")).toEqual(["unread", ""]);
    expect(queryKeys.messages("+15550001")).toEqual(["messages", "+15550001"]);
    expect(queryKeys.broadcast("bc_1")).toEqual(["broadcast", "bc_1"]);
  });

  it("families do not share a prefix", () => {
    const heads = Object.values(queryKeys).map((f) => (f as (...a: unknown[]) => readonly unknown[])()[0]);
    expect(new Set(heads).size).toBe(heads.length);
  });

  it("finds a literal key (the check below is not blind)", () => {
    expect(literalKeysIn('useQuery({\n  queryKey: ["inbox", qs],\n})')).toEqual([2]);
    expect(literalKeysIn("invalidateQueries({ queryKey:[`x`] })")).toEqual([1]);
    expect(literalKeysIn("useQuery({ queryKey: queryKeys.inbox(qs) })")).toEqual([]);
  });

  it("no page or component writes a query key as a literal", () => {
    const found = ["app", "components"]
      .flatMap(sourceFiles)
      .flatMap((file) => literalKeysIn(readFileSync(file, "utf8")).map((line) => `${file}:${line}`));
    expect(found, "take the key from lib/dashboard/query-keys.ts").toEqual([]);
  });
});
