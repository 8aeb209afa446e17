// Every dashboard page at a phone's width (390 px): no sideways page scroll and no serious
// or critical axe violation (docs/architecture.md "Dashboard"). The page list comes from app/(dashboard), so a new
// page is covered without editing this file; a detail page ([uid], [id]) is visited with a
// real id taken from a link on its list page, and the test fails if no such link exists.
import fs from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { expectAccessible, hydrated, login, seriousAxeViolations } from "./helpers";

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

/** Links on a page whose path has the given shape. */
async function linksLike(page: Page, url: string, shape: RegExp): Promise<string[]> {
  await page.goto(url);
  // The dashboard's loading skeleton (app/(dashboard)/loading.tsx) has no heading: wait for the
  // page itself before reading its links (CI once read the skeleton and found none).
  await page.locator("main h1").first().waitFor({ state: "visible" });
  const hrefs = await page.locator("main a[href]").evaluateAll((as) =>
    as.map((a) => {
      const u = new URL((a as HTMLAnchorElement).href);
      return { path: u.pathname, href: u.pathname + u.search };
    }),
  );
  return hrefs.filter((h) => shape.test(h.path)).map((h) => h.href);
}

/**
 * A real URL for a detail route: the first link on the parent list page (for the default
 * sender, else for each other sender) whose path has the same shape and is not a static
 * sibling page (e.g. /chatbots/new).
 */
async function realUrlFor(page: Page, pattern: string, staticRoutes: Set<string>, senders: string[]) {
  const segments = pattern.split("/");
  const at = segments.findIndex(isDynamic);
  const parent = segments.slice(0, at).join("/") || "/";
  const shape = new RegExp(`^${segments.map((s) => (isDynamic(s) ? "[^/]+" : s)).join("/")}$`);
  for (const query of ["", ...senders.map((s) => `?sender=${encodeURIComponent(s)}`)]) {
    const found = (await linksLike(page, parent + query, shape)).find((h) => !staticRoutes.has(h.split("?")[0] ?? h));
    if (found) return found;
  }
  throw new Error(`no link to ${pattern} on ${parent} for any sender: the page list cannot cover it`);
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

/**
 * The problems of one page. A page that redirects after streaming its shell (the home page,
 * to the first section) may navigate under a measurement, or under its own `goto` (Playwright:
 * "is interrupted by another navigation"; CI N, 2026-12-03): once that navigation has loaded,
 * the page is asked for and measured again, at most three times in all.
 */
const REDIRECTED = ["Execution context was destroyed", "is interrupted by another navigation"];
async function problemsOn(page: Page, url: string): Promise<string[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await measure(page, url);
    } catch (error) {
      if (attempt === 3 || !REDIRECTED.some((m) => String(error).includes(m))) throw error;
      await page.waitForLoadState("load");
    }
  }
}

async function measure(page: Page, url: string): Promise<string[]> {
  await page.goto(url);
  await expect(page.locator("main")).toBeVisible();
  await page.waitForLoadState("load");
  const problems: string[] = [];
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  if (scrollWidth > clientWidth) problems.push(`${url}: page scrolls sideways (${scrollWidth} > ${clientWidth})`);
  for (const violation of await seriousAxeViolations(page)) problems.push(`${url}: ${violation}`);
  return problems;
}

const ROUTES = dashboardRoutes();
const STATIC_ROUTES = new Set(ROUTES.filter((r) => !r.split("/").some(isDynamic)));
const DYNAMIC_ROUTES = ROUTES.filter((r) => r.split("/").some(isDynamic));

test.describe("every dashboard page at 390 px: no sideways scroll, no serious or critical axe violation", () => {
  // One signed-in phone-sized page per worker (signed in again after a failure): one test per page.
  let page: Page;
  let senders: string[] = [];

  test.beforeAll(async ({ browser }) => {
    // A context of its own for the phone-sized viewport (and theme) from its first page on.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    page = await context.newPage();
    await login(page);
    senders = await page
      .getByLabel("Sender", { exact: true })
      .locator("option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
  });

  test.afterAll(async () => {
    await page.context().close();
  });

  test("the page list comes from app/(dashboard) and includes the detail pages", () => {
    expect(ROUTES).toContain("/billing");
    expect(ROUTES).toContain("/webhooks/[uid]");
  });

  for (const route of STATIC_ROUTES) {
    test(route, async () => {
      expect(await problemsOn(page, route)).toEqual([]);
    });
  }

  for (const pattern of DYNAMIC_ROUTES) {
    test(`${pattern} with a real id`, async () => {
      const url = await realUrlFor(page, pattern, STATIC_ROUTES, senders);
      expect(await problemsOn(page, url)).toEqual([]);
    });
  }

  test("a conversation thread and the billing record drawer", async () => {
    const problems: string[] = [];
    for (const url of await extraViews(page)) problems.push(...(await problemsOn(page, url)));
    expect(problems).toEqual([]);
  });
});

test("at 390 px the navigation is a compact menu and the broadcasts table shows its progress on the first screen", async ({
  browser,
}) => {
  const height = 844;
  const context = await browser.newContext({ viewport: { width: 390, height } });
  const page = await context.newPage();
  await login(page);
  await page.goto("/broadcasts");
  const nav = page.getByRole("navigation", { name: "Main" });
  const menu = nav.getByRole("button", { name: /^Menu/ });
  await hydrated(menu);
  // One line naming the page, not every link: the page itself starts on the first screen.
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toContainText("Broadcasts");
  await expect(nav.getByRole("link", { name: "Billing" })).toBeHidden();
  const heading = await page.getByRole("heading", { level: 1, name: "Broadcasts" }).boundingBox();
  expect(heading?.y ?? height, "the heading is in the top half of the first screen").toBeLessThan(height / 2);

  // The progress of the first started broadcast is on the first screen, without scrolling
  // sideways; its status stands under its name.
  const row = page
    .getByTestId("broadcast-row")
    .filter({ has: page.getByRole("progressbar") })
    .first();
  const bar = row.getByRole("progressbar");
  await expect(bar).toBeInViewport();
  const box = await bar.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0), "the progress bar ends inside the screen").toBeLessThanOrEqual(390);
  await expect(row.getByTestId("broadcast-row-status")).toBeVisible();
  await expect(row.getByTestId("broadcast-row-status")).toHaveText(/^[A-Z]+$/);
  await expect(row.getByTestId("broadcast-row-progress")).toContainText("sent");

  // The menu opens the list, leads to another page and is closed there.
  await menu.click();
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expectAccessible(page);
  await nav.getByRole("link", { name: "Billing" }).click();
  await expect(page).toHaveURL(/\/billing/);
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  await expect(menu).toContainText("Billing");

  // From md up the navigation is the sidebar of links, with no menu button.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(menu).toBeHidden();
  await expect(nav.getByRole("link", { name: "Broadcasts" })).toBeVisible();
  await context.close();
});
