import { expect, test } from "@playwright/test";
import { generateToken, saveScreenshot } from "./helpers";

// The API reference (docs/api/README.md "The reference"): the served OpenAPI document rendered by Scalar,
// self-hosted under the app's CSP: the operations and the events are there, search finds one, and
// "Test Request" with a bearer token gets a real answer from the API.
test("the API reference renders the document, searches it and tries an operation with a token", async ({ page }) => {
  // The first render below waits for Chromium's CPU on a busy CI: the rest of the test as before.
  test.setTimeout(240_000);
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const outside: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith("http") && url.hostname !== "localhost") outside.push(r.url());
  });
  // A fresh account (its own token; its contact book list is a real, empty answer).
  await page.goto("/signup");
  await page.getByLabel("Company name").fill("Reference Co");
  await page.getByLabel("Work email").fill(`reference-${Date.now()}@example.com`);
  await page.getByLabel("Password (at least 10 characters)").fill("a-long-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("onboarding-progress")).toBeVisible();
  const token = await generateToken(page, "reference try-it");

  await page.goto("/docs/api");
  // The renderer's first render is the whole document (1.1 MB: 109 operations and the events),
  // parsed and laid out by Chromium: 5-6 s on a quiet machine (3 loads, 2026-12-02), over 30 s
  // in a CI run where this lane runs at a lower priority beside both suites on two cores (a
  // fresh-clone run of 2026-12-02 failed here, load 12). The wait is for a starved browser,
  // not a promise of the page.
  await expect(page.getByRole("heading", { name: "Switchboard public API", level: 1 })).toBeVisible({
    timeout: 150_000,
  });
  // Operations from the document, grouped by tag.
  await expect(page.getByRole("heading", { name: "List message billing records", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Contact books", exact: true })).toBeVisible();

  // The events of the document's webhooks section are listed too.
  await page.getByRole("button", { name: /Open Search/ }).click();
  await page.keyboard.type("message.status.accepted");
  const event = page.getByRole("option").filter({ hasText: "message.status.accepted" });
  await expect(event.first()).toBeVisible();
  await event.first().click();
  await expect(page.getByRole("heading", { name: "message.status.accepted", exact: true })).toBeVisible();

  // Search finds an operation by its words and opens it.
  await page.getByRole("button", { name: /Open Search/ }).click();
  await page.keyboard.type("list contact books");
  const hit = page.getByRole("option").filter({ hasText: "List contact books" });
  await expect(hit.first()).toBeVisible();
  await expect(hit.first()).toContainText("/api/{version}/contact-books");
  await hit.first().click();

  // Try it: the contact book list, with the token, against this same origin.
  await page.getByRole("button", { name: "Test Request (get /api/{version}/contact-books)" }).click();
  await page.getByPlaceholder("Token").last().fill(token);
  // (The renderer offers the document's {version} values, v3 first: the default.)
  const answer = page.waitForResponse((r) => /^\/api\/v[23]\/contact-books$/.test(new URL(r.url()).pathname));
  await page.keyboard.press("Control+Enter");
  const response = await answer;
  expect(response.request().headers().authorization).toBe(`Bearer ${token}`);
  expect(response.status()).toBe(200);
  const body = await response.json();
  expect(body.success).toBe(true);
  expect(Array.isArray(body.data.contactBooks ?? body.data.items)).toBe(true);
  await expect(page.getByText("200 OK").first()).toBeVisible();
  await expect(page.getByText('"Contact books retrieved"').first()).toBeVisible();
  await saveScreenshot(page, "api-reference-try-it");

  expect(violations).toEqual([]);
  expect(outside).toEqual([]);
});
