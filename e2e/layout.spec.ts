import { expect, type Request, test } from "@playwright/test";
import { DEMO_SENDER, expectAccessible, hydrated, login, saveScreenshot } from "./helpers";

test("on a phone, in dark mode, the dashboard stays usable and accessible; the sender switcher writes the URL", async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  await login(page);
  await page.getByRole("button", { name: "Dark mode" }).click();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expectAccessible(page);

  const switcher = page.getByLabel("Sender", { exact: true });
  const values = await switcher.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  const one = values.find((v) => v !== "") ?? "";
  await switcher.selectOption(one);
  await expect(page).toHaveURL(new RegExp(`sender=${encodeURIComponent(one).replace("+", "\\+")}`));
  await expect(page.getByText(`Sender ${one}`)).toBeVisible();
  // The chosen sender follows the navigation (on a phone, behind the compact menu).
  await page.getByRole("button", { name: /^Menu/ }).click();
  await page.getByRole("link", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(/\/webhooks\?sender=/);
  await expect(page.getByText(/Destinations for sender/)).toContainText(one);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Light mode" }).click();
  await saveScreenshot(page, "phone-layout");
});

test("every sender-scoped page and the composer show the sender in force; the header names the default", async ({
  page,
}) => {
  await login(page);
  const switcher = page.getByLabel("Sender", { exact: true });
  const scoped = ["/messages", "/analytics", "/webhooks", "/blacklist", "/chatbots", "/chatbots/new"];
  for (const path of scoped) {
    await page.goto(path);
    await expect(page.getByTestId("sender-in-force").first(), path).toContainText(DEMO_SENDER.phoneNumber);
    await expect(page.getByTestId("sender-in-force").first(), path).toContainText("default sender");
    await expect(switcher.locator("option:checked"), path).toHaveText(`Default sender: ${DEMO_SENDER.phoneNumber}`);
  }
  // A webhook's page too.
  await page.goto("/webhooks");
  await page.getByTestId("webhook-row").first().getByRole("link").first().click();
  await expect(page.getByTestId("sender-in-force")).toContainText(DEMO_SENDER.phoneNumber);

  // The composer says which number sends.
  await page.goto("/messages");
  const composer = page.getByRole("form", { name: "Send a message" });
  await expect(composer.getByTestId("sender-in-force")).toContainText(`Sends from: ${DEMO_SENDER.phoneNumber}`);
});

test("a sender chosen in the header is the one every sender-scoped page and the composer show", async ({ page }) => {
  await login(page);
  const switcher = page.getByLabel("Sender", { exact: true });
  await page.goto("/messages");
  const composer = page.getByRole("form", { name: "Send a message" });
  const other = "+15550100002";
  await switcher.selectOption(other);
  await expect(page).toHaveURL(/sender=%2B15550100002/);
  await expect(composer.getByTestId("sender-in-force-number")).toHaveText(other);
  await expect(composer.getByTestId("sender-in-force")).toContainText("chosen in the header");
  for (const path of ["/analytics", "/webhooks", "/blacklist", "/chatbots", "/chatbots/new"]) {
    await page.goto(`${path}?sender=${encodeURIComponent(other)}`);
    await expect(page.getByTestId("sender-in-force-number").first(), path).toHaveText(other);
  }
  // Where no sender means every sender, the page and the header say so.
  await page.goto("/inbox");
  await expect(page.getByTestId("sender-in-force")).toContainText("all senders");
  await expect(switcher.locator("option:checked")).toHaveText("All senders");
  await page.goto("/billing");
  await expect(switcher.locator("option:checked")).toHaveText("All senders");
});

test("the app has a favicon", async ({ page, request }) => {
  await page.goto("/login");
  const href = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(href).toBeTruthy();
  const icon = await request.get(href ?? "");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toContain("image/svg+xml");
  expect(await icon.text()).toContain("<svg");
});

// Dashboard links prefetch their page only on intent (components/ui/intent-link.tsx,
// docs/dashboard.md "Navigation"): a page load asks the server for no other page, and a
// pointer over a navigation link prefetches that one page before the click.
test("a dashboard page prefetches no other page until a link is pointed at", async ({ page }) => {
  await login(page);
  // Next marks its prefetches (a click's fetch or a refresh has no such header).
  const isPrefetch = (r: Request) => r.headers()["next-router-prefetch"] === "1";
  const pages: string[] = [];
  page.on("request", (r) => {
    if (isPrefetch(r)) pages.push(new URL(r.url()).pathname);
  });
  await page.goto("/billing");
  const inbox = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: /^Inbox/ });
  await hydrated(inbox);
  // Hydrated: with viewport prefetching, every navigation link in view would be requested now.
  const prefetched = page.waitForResponse((r) => isPrefetch(r.request()) && new URL(r.url()).pathname === "/inbox");
  await inbox.hover();
  await prefetched;
  expect(pages.filter((p) => p !== "/inbox")).toEqual([]);
  await inbox.click();
  await expect(page).toHaveURL(/\/inbox/);
});
