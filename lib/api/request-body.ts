// Reading the request: token locations (spec 5), bounded body, JSON parsing.
import { ApiError } from "@/lib/core/errors";

export const TOKEN_FIELDS = ["authToken", "auth_token", "token"] as const;

export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("authorization");
  if (!header) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(header.trim());
  return m?.[1]?.trim() || undefined;
}

export function tokenFrom(source: Record<string, unknown> | URLSearchParams): string | undefined {
  for (const field of TOKEN_FIELDS) {
    const v = source instanceof URLSearchParams ? source.get(field) : source[field];
    if (typeof v === "string" && v.trim()) return v.trim();
  }
  return undefined;
}

/** Reads at most `limit` bytes; more gives a 413 without buffering the rest. */
export async function readBody(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  const tooLarge = () =>
    new ApiError("PAYLOAD_TOO_LARGE", `Request body exceeds the limit of ${limit} bytes`, { limitBytes: limit });
  if (declared > limit) throw tooLarge();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function isJsonContentType(request: Request): boolean {
  const type = request.headers.get("content-type") ?? "";
  return /^application\/([\w.+-]+\+)?json\b/i.test(type.trim());
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: string };

export function parseJson(text: string): ParsedJson {
  if (!text.trim()) return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
