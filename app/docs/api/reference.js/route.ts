// GET /docs/api/reference.js: the OpenAPI renderer of the API reference page, served from
// our own origin (the browser bundle of @scalar/api-reference; no CDN, and the page's CSP
// allows scripts from 'self' only besides Next's own inline ones: next.config.mjs).
import { readFile } from "node:fs/promises";
import path from "node:path";

const BUNDLE = path.join(process.cwd(), "node_modules/@scalar/api-reference/dist/browser/standalone.js");

let bundle: Promise<Buffer> | undefined;

export async function GET(): Promise<Response> {
  bundle ??= readFile(BUNDLE);
  const body = await bundle.catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return new Response(new Uint8Array(body), {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      "Cache-Control": "public, max-age=3600",
    },
  });
}
