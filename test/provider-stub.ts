// Provider mode against a stubbed Graph API (lib/domains/provider/http-client.ts): the self-serve
// sender checks (lib/domains/onboarding/connect-sender.ts) ask it whose number a phone number id is.
import { resetEnvCache } from "@/lib/core/env";
import { setProvider } from "@/lib/domains/provider/client";
import { createHttpClient } from "@/lib/domains/provider/http-client";

/** Provider mode against a Graph API that knows one id: 1234 is +{digits}. */
export function providerKnows(id: string, digits: string) {
  process.env.PROVIDER_MODE = "http";
  resetEnvCache();
  const asked: string[] = [];
  setProvider(
    createHttpClient({
      baseUrl: "https://graph.example.test",
      apiVersion: "v21.0",
      timeoutMs: 1000,
      tokenFor: () => "test-token",
      fetch: (async (url: string) => {
        asked.push(String(url));
        return String(url).includes(`/${id}?`)
          ? Response.json({ display_phone_number: `+${digits.slice(0, 1)} ${digits.slice(1)}`, id })
          : Response.json({ error: { message: "Unsupported get request", code: 100 } }, { status: 400 });
      }) as typeof fetch,
    }),
  );
  return asked;
}
