// Helpers for the OpenAPI examples each domain builds from one sample per resource
// (lib/domains/<domain>/examples.ts, docs/openapi.md "Adding a route").
import { type PageBlock, pageBlock } from "./pagination";

/** The instant the samples are taken at: fixed, so the document is the same on every start. */
export const EXAMPLE_TIME = new Date("2026-11-23T21:05:47.922Z");

/** EXAMPLE_TIME moved by some seconds (a later update, an earlier creation). */
export const exampleTime = (seconds = 0) => new Date(EXAMPLE_TIME.getTime() + seconds * 1000);

type Listed<K extends string, T> = { [name in K]: T[] } & { items: T[] };

/**
 * A list answer as the list routes give it: the rows under their own name, the same rows
 * again as `items` (the alias every list carries), and the block of the first page of 50.
 * A list paged another way passes its own block; `null` for a list that is not paged
 * (contact fields, senders).
 */
export function listExample<K extends string, T>(key: K, rows: T[]): Listed<K, T> & { pagination: PageBlock };
export function listExample<K extends string, T>(key: K, rows: T[], pagination: null): Listed<K, T>;
export function listExample<K extends string, T, P>(key: K, rows: T[], pagination: P): Listed<K, T> & { pagination: P };
export function listExample<K extends string, T>(key: K, rows: T[], pagination?: unknown) {
  const listed = { [key]: rows, items: rows } as Listed<K, T>;
  if (pagination === null) return listed;
  return { ...listed, pagination: pagination ?? pageBlock(1, 50, rows.length, rows.length) };
}
