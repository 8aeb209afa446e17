import { expect, test } from "@playwright/test";
import { expectAccessible, login } from "./helpers";

// The integrator docs under /docs (docs/integrators/*.md): reachable from the dashboard's
// navigation without signing in again, every page renders and is accessible in light and
// dark, and an error answer's docUrl lands on its entry of the error reference.
test("the integrator docs: linked from the dashboard, every page accessible, docUrl lands on its entry", async ({
  page,
}) => {
  await login(page);
  await page.getByRole("link", { name: "Integrator docs" }).click();
  await expect(page.getByRole("heading", { name: "Switchboard docs", level: 1 })).toBeVisible();
  await expectAccessible(page);

  const pages = [
    ["Quickstart", "Quickstart: from sign-up to a verified webhook"],
    ["Error reference", "Error reference"],
    ["Webhooks for receivers", "Webhooks for receivers"],
    ["Endpoints", "Endpoints"],
    ["Versioning and deprecation", "Versioning and deprecation"],
    ["Changelog", "Changelog"],
    ["Migrating from the provider's SDKs", "Migrating from the provider's SDKs"],
  ];
  for (const [link, heading] of pages) {
    await page.getByRole("navigation", { name: "Docs" }).getByRole("link", { name: link, exact: true }).click();
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await expectAccessible(page);
  }

  // An error answer's docUrl, followed, shows that code's entry.
  const answer = await page.request.get("/api/v3/webhooks");
  expect(answer.status()).toBe(401);
  const { docUrl, error_code } = await answer.json();
  expect(docUrl).toBe(`/docs/errors#${error_code.toLowerCase()}`);
  await page.goto(docUrl);
  await expect(page.locator(`#${error_code.toLowerCase()}`)).toHaveText(error_code);
  await expect(page.locator(`#${error_code.toLowerCase()}`)).toBeInViewport();

  // Dark mode keeps it accessible.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.evaluate(() => localStorage.removeItem("theme"));
  await page.goto("/docs/webhooks");
  await expect(page.locator("html")).toHaveClass(/dark/);
  await expectAccessible(page);
});
