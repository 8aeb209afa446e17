// A JSON POST to an app/api/dashboard handler; a refusal throws its message.
type ApiFailure = { message?: unknown; error_code?: string };

export async function postJson(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as ApiFailure;
  if (!res.ok) throw new Error(typeof json.message === "string" ? json.message : (json.error_code ?? "Request failed"));
  return json;
}
