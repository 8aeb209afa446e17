// Every dashboard page at a phone's width (390 px): no sideways page scroll and no serious
// or critical axe violation (issue 13). The page list comes from app/(dashboard), so a new
// page is covered without editing this file; a detail page ([uid], [id]) is visited with a
// real id taken from a link on its list page, and the test fails if no such link exists.
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { login } from "./helpers";

const DASHBOARD_DIR = path.join(process.cwd(), "app", "(dashboard)");

/** Route patterns of every page.tsx under app/(dashboard), e.g. "/webhooks/[uid]". */
function dashboardRoutes(dir = DASHBOARD_DIR, prefix = ""): string[] {
  const routes: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.isFile() && entry.name === "page.tsx") routes.push(prefix || "/");
    if (!entry.isDirectory()) continue;
    // Route groups "(x)" add no segment; private folders "_x" hold no routes.
    if (entry.name.startsWith("_")) continue;
    const segment = entry.name.startsWith("(") ? "" : `/${entry.name}`;
    routes.push(...dashboardRoutes(path.join(dir, entry.name), prefix + segment));
  }
  return routes.sort();
}

const isDynamic = (segment: string) => segment.startsWith("[");

/**
 * A real URL for a detail route: the first link on the parent list page whose path has
 * the same shape and is not a static sibling page (e.g. /chatbots/new).
 */
async function realUrlFor(page: Page, pattern: string, staticRoutes: Set<string>): Promise<string> {
  const segments = pattern.split("/");
  const at = segments.findIndex(isDynamic);
  const parent = segments.slice(0, at).join("/") || "/";
  await page.goto(parent);
  const hrefs = await page
    .locator("main a[href]")
    .evaluateAll((as) => as.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  const shape = new RegExp(`^${segments.map((s) => (isDynamic(s) ? "[^/]+" : s)).join("/")}$`);
  const found = hrefs.find((h) => shape.test(h) && !staticRoutes.has(h));
  expect(found, `a link to ${pattern} on ${parent}`).toBeTruthy();
  return found as string;
}

/** Views that are the same page in another state but show more: a thread, a drawer, a delivery. */
async function extraViews(page: Page): Promise<string[]> {
  await page.goto("/inbox");
  const thread = await page.locator('main a[href*="c="]').first().getAttribute("href");
  await page.goto("/billing");
  const record = await page
    .getByRole("link", { name: /^Details of message/ })
    .first()
    .getAttribute("href");
  expect(thread, "a conversation on /inbox").toBeTruthy();
  expect(record, "a billing record on /billing").toBeTruthy();
  return [thread as string, record as string];
}

async function problemsOn(page: Page, url: string): Promise<string[]> {
  await page.goto(url);
  await expect(page.locator("main")).toBeVisible();
  await page.waitForLoadState("load");
  const problems: string[] = [];
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  if (scrollWidth > clientWidth) problems.push(`${url}: page scrolls sideways (${scrollWidth} > ${clientWidth})`);
  const results = await new AxeBuilder({ page }).analyze();
  for (const v of results.violations) {
    if (v.impact !== "serious" && v.impact !== "critical") continue;
    problems.push(`${url}: ${v.id} (${v.impact}) at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }
  return problems;
}

test("every dashboard page at 390 px: no sideways scroll, no serious or critical axe violation", async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await login(page);
  const routes = dashboardRoutes();
  expect(routes).toContain("/webhooks/[uid]");
  const staticRoutes = new Set(routes.filter((r) => !r.split("/").some(isDynamic)));
  const urls = [...staticRoutes];
  for (const pattern of routes.filter((r) => r.split("/").some(isDynamic))) {
    urls.push(await realUrlFor(page, pattern, staticRoutes));
  }
  urls.push(...(await extraViews(page)));
  const problems: string[] = [];
  for (const url of urls) problems.push(...(await problemsOn(page, url)));
  expect(problems).toEqual([]);
});
