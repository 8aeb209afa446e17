import { expect, test } from "@playwright/test";
import { expectAccessible, login, saveScreenshot } from "./helpers";

// Pages other parts of the project add to the dashboard, and the API reference: each
// loads for the demo user and passes the same axe check.
for (const path of ["/messages", "/templates", "/analytics", "/broadcasts/new", "/docs/api"]) {
  test(`${path} loads and is accessible`, async ({ page }) => {
    if (path === "/docs/api") test.setTimeout(150_000); // the minute below, then axe over the whole reference
    await login(page);
    await page.goto(path);
    // The API reference's h1 is Scalar's, drawn once it has parsed the whole OpenAPI document
    // (about 1.1 MB) in the page: 15-20 s of a busy CI machine's CPU, so it gets the same
    // minute as the phone-width checks below.
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible({
      timeout: path === "/docs/api" ? 60_000 : undefined,
    });
    await expectAccessible(page);
    await saveScreenshot(page, `page${path.replaceAll("/", "-")}`);
  });
}

// The API reference is not a dashboard page (e2e/narrow-screens.spec.ts lists those), so
// its phone-width check lives here: at 390 px, in light and in dark mode, the page does
// not scroll sideways and axe finds nothing serious or critical (the reference's theme
// fixes: app/docs/api/reference-css.ts).
for (const colorScheme of ["light", "dark"] as const) {
  test(`/docs/api at 390 px in ${colorScheme} mode: no sideways scroll, accessible`, async ({ browser }) => {
    test.setTimeout(150_000);
    // A context of its own for the phone-sized viewport (and theme) from its first page on.
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme });
    const page = await context.newPage();
    await login(page);
    await page.goto("/docs/api");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible({ timeout: 60_000 });
    await page.waitForLoadState("load");
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      clientWidth: document.documentElement.clientWidth,
    }));
    expect(scrollWidth, "page scrolls sideways").toBeLessThanOrEqual(clientWidth);
    await expectAccessible(page);
    await saveScreenshot(page, `page-docs-api-390-${colorScheme}`);
    await context.close();
  });
}
