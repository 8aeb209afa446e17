// Helpers for the OpenAPI examples each domain builds from one sample per resource
// (lib/domains/<domain>/examples.ts, docs/openapi.md "Adding a route").
import { listOf, pageOf } from "./pagination";

/** The customer every sample belongs to. */
export const SAMPLE_CUSTOMER_ID = "cmwtr8z1k0000ug7dcustomer0";

/** The instant the samples are taken at: fixed, so the document is the same on every start. */
export const EXAMPLE_TIME = new Date("2026-11-23T21:05:47.922Z");

/** EXAMPLE_TIME moved by some seconds (a later update, an earlier creation). */
export const exampleTime = (seconds = 0) => new Date(EXAMPLE_TIME.getTime() + seconds * 1000);

/**
 * A list answer as the list routes give it (listOf, pageOf): the rows under their own name,
 * the same rows as `items`, and the block of the first page of 50. A list paged another way
 * passes its own block; `null` for a list that is not paged (contact fields, senders).
 */
export function listExample<K extends string, T>(key: K, rows: T[]): ReturnType<typeof pageOf<K, T>>;
export function listExample<K extends string, T>(key: K, rows: T[], pagination: null): ReturnType<typeof listOf<K, T>>;
export function listExample<K extends string, T, P>(
  key: K,
  rows: T[],
  pagination: P,
): ReturnType<typeof listOf<K, T>> & { pagination: P };
export function listExample<K extends string, T>(key: K, rows: T[], pagination?: unknown) {
  if (pagination === undefined) return pageOf(key, rows, { page: 1, limit: 50 }, rows.length);
  return pagination === null ? listOf(key, rows) : { ...listOf(key, rows), pagination };
}
