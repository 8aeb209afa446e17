// Shared steps: sign in, an axe check that fails on serious or critical issues, and a
// screenshot of the final page into e2e/artifacts/.
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type BrowserContext, expect, type Locator, type Page } from "@playwright/test";
import { DEMO_EMAIL, DEMO_PASSWORD } from "../lib/domains/demo/constants";
import { signProviderBody } from "../lib/domains/provider/callbacks/signature";
import { envelopeFor } from "../lib/domains/provider/simulator-callbacks";
import { inboundTextChange } from "../lib/domains/provider/simulator-inbound";
import type { ProviderSender } from "../lib/domains/provider/types";

export { DEMO_EMAIL, DEMO_PASSWORD };

/**
 * Session cookies this worker process got from signing in, by account: a later `login` in a
 * fresh browser context reuses the session while the app still accepts it (each sign-in through
 * the form costs the app and the browser over a second of CPU, and it is tested on its own in
 * auth.spec.ts and security.spec.ts). A session the app ended (sign-out, removal, a new
 * password) sends the page to /login, and the form signs in again.
 */
const sessions = new Map<string, Awaited<ReturnType<BrowserContext["cookies"]>>>();

export async function login(page: Page, email = DEMO_EMAIL, password = DEMO_PASSWORD): Promise<void> {
  const key = `${email}\n${password}`;
  const cookies = sessions.get(key);
  if (cookies) {
    await page.context().addCookies(cookies);
    await page.goto("/billing");
    if (new URL(page.url()).pathname === "/billing") return;
    sessions.delete(key);
    await page.context().clearCookies();
  }
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/billing/);
  const session = (await page.context().cookies()).filter((c) => c.name.includes("session-token"));
  if (session.length) sessions.set(key, session);
}

/**
 * Resolves once React has hydrated this element (its props are attached). Typing into a
 * controlled input before then is lost: hydration puts the state's value back.
 */
export async function hydrated(element: Locator): Promise<void> {
  await expect
    .poll(() => element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps$"))), {
      timeout: 15_000,
    })
    .toBe(true);
}

/**
 * The page's serious and critical axe violations, one line each (rule, impact, where).
 * Every rule of axe runs; two settings only cut what each check costs the browser and the test
 * process (measured on the demo's /billing: about 10 s of CPU a check down to about 3 s, the
 * same violations; docs/development.md "Tests"):
 * - `resultTypes: ["violations"]`: axe builds a selector for every node of every result type
 *   it is asked for; passes and inapplicable rules are then reported by one node each, the
 *   violations in full;
 * - legacy mode: `axe.run` in the page itself. The default splits a check into a partial run
 *   per frame and a second page that axe is loaded into again to merge them, for cross-origin
 *   frames; the app's pages have no frames at all (same-origin ones would still be checked).
 */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ["violations"] })
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
}

export async function expectAccessible(page: Page): Promise<void> {
  // A server action's re-render puts the page's <title> back a moment after its rows: axe
  // reads a settled page (a page with no title still fails, here or in axe's document-title).
  await expect(page).toHaveTitle(/\S/);
  expect(await seriousAxeViolations(page), `axe on ${page.url()}`).toEqual([]);
}

/**
 * A full-page screenshot for people to look at, with E2E_SCREENSHOTS=1 (docs/development.md
 * "Tests"): it asserts nothing, and each costs the browser most of a second of CPU, so the
 * default run skips them.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.E2E_SCREENSHOTS !== "1") return;
  await page.screenshot({ path: path.join("e2e", "artifacts", `${name}.png`), fullPage: true });
}

/** Creates a token in the UI and returns its value (shown once). */
export async function generateToken(page: Page, name: string, scope = ""): Promise<string> {
  await page.goto("/tokens");
  await page.getByLabel("Name").fill(name);
  if (scope) await page.getByLabel("Scope").selectOption(scope);
  await page.getByRole("button", { name: "Generate token" }).click();
  const value = page.getByTestId("new-token");
  await expect(value).toBeVisible();
  return (await value.textContent())?.trim() ?? "";
}

/**
 * A contact writes to the demo's default sender: a signed inbound callback to the app's
 * provider endpoint (as `simulate:inbound` sends), which opens the customer service window.
 * Resolves once the endpoint stored it; the app's processor applies it within a moment.
 */
/** The demo's default sender (lib/domains/demo/seed.ts DEMO_SENDERS[0]). */
export const DEMO_SENDER = { phoneNumber: "+15550100001", phoneNumberId: "109990000000001", wabaId: "209990000000001" };

/**
 * Signs a provider callback body the way the app under test checks it: with the
 * PROVIDER_APP_SECRET the app generated into its data folder (production mode), else the
 * environment's.
 */
export function signForApp(body: string): string {
  if (process.env.PROVIDER_APP_SECRET) return signProviderBody(body, process.env.PROVIDER_APP_SECRET);
  const file = process.env.E2E_DATA_DIR ? path.join(process.env.E2E_DATA_DIR, "secrets.json") : "";
  const secret =
    file && fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")).PROVIDER_APP_SECRET : undefined;
  return signProviderBody(body, typeof secret === "string" && secret ? secret : undefined);
}

export async function contactWrites(page: Page, from: string, text = "Hello", sender: ProviderSender = DEMO_SENDER) {
  const body = envelopeFor([inboundTextChange(sender, { from, text })]);
  const response = await page.request.post("/api/provider/webhook", {
    data: body,
    headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signForApp(body) },
  });
  expect(response.status()).toBe(200);
  // Applied once the sender's conversation with the contact has its window open (the endpoint
  // wakes the processor at once; a loaded machine may take a moment).
  const query = new URLSearchParams({ sender: sender.phoneNumber, search: from.replace(/\D/g, "") });
  await expect
    .poll(
      async () => {
        const list = await page.request.get(`/api/dashboard/conversations?${query}`);
        const { conversations } = (await list.json()).data as { conversations: { windowOpen: boolean }[] };
        return conversations.some((c) => c.windowOpen);
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

type Theme = "light" | "dark";

/**
 * At each width and theme (the header's toggle): no sideways scroll once the page settles
 * (charts and lists follow their box a frame or more after a resize) and axe; then back to the
 * desktop's width, light.
 */
export async function accessibleAt(page: Page, cases: [number, Theme][]): Promise<void> {
  for (const [width, theme] of cases) {
    await page.setViewportSize({ width, height: 900 });
    const toggle = page.getByRole("button", { name: theme === "dark" ? "Dark mode" : "Light mode" });
    if (await toggle.isVisible()) await toggle.click();
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), {
        message: `${width} px ${theme}: no sideways scroll`,
      })
      .toBeLessThanOrEqual(0);
    await expectAccessible(page);
  }
  const light = page.getByRole("button", { name: "Light mode" });
  if (await light.isVisible()) await light.click();
  await page.setViewportSize({ width: 1280, height: 900 });
}
