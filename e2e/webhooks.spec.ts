import { expect, test } from "@playwright/test";
import { expectAccessible, login, saveScreenshot } from "./helpers";

test("create a webhook: the secret shows once, never after reload; then set it inactive", async ({ page }) => {
  await login(page);
  await page.goto("/webhooks");
  await expectAccessible(page);
  const name = `E2E hook ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Endpoint URL (HTTPS)").fill("https://127.0.0.1:59999/hook");
  await page.getByLabel("message.status.delivered").check();
  await page.getByLabel("message.status.read").check();
  await page.getByRole("button", { name: "Create webhook" }).click();

  const secret = page.getByTestId("signing-secret");
  await expect(secret).toBeVisible();
  await expect(secret).toHaveText(/^whsec_/);
  await expect(page.getByText("It will not be shown again", { exact: false })).toBeVisible();
  const value = (await secret.textContent()) ?? "";
  const row = page.getByTestId("webhook-row").filter({ hasText: name });
  await expect(row).toContainText("ACTIVE");

  await page.reload();
  await expect(page.getByTestId("signing-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(value);

  await page.getByTestId("webhook-row").filter({ hasText: name }).getByRole("link", { name }).click();
  expect(await page.content()).not.toContain(value);
  // A test event lands in the delivery log, which offers a redelivery.
  await page.getByRole("button", { name: "Send test event" }).click();
  await expect(page.getByTestId("delivery-row")).toHaveCount(1);
  await expect(page.getByTestId("delivery-row")).toContainText("webhook.test");
  await expect(page.getByTestId("delivery-row").getByRole("button", { name: "Redeliver" })).toBeVisible();
  await page.getByLabel("Status", { exact: true }).selectOption("INACTIVE");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByTestId("webhook-status")).toHaveText("Status: INACTIVE");
  await page.reload();
  await expect(page.getByTestId("webhook-status")).toHaveText("Status: INACTIVE");
  await expect(page.getByRole("button", { name: "Send test event" })).toBeDisabled();
  await expectAccessible(page);
  await saveScreenshot(page, "webhook-inactive");
});

test("an endpoint URL the service refuses shows the service's error under the endpoint field", async ({ page }) => {
  await login(page);
  await page.goto("/webhooks");
  await page.getByLabel("Name", { exact: true }).fill(`E2E refused ${Date.now()}`);
  const url = page.getByLabel("Endpoint URL (HTTPS)");
  // A well-formed https URL, so the browser's URL check passes; the service's URL guard
  // refuses credentials in it whatever WEBHOOK_ALLOW_PRIVATE_URLS says.
  await url.fill("https://user:secret@example.com/hook");
  expect(await url.evaluate((el: HTMLInputElement) => el.checkValidity())).toBe(true);
  await page.getByLabel("message.status.delivered").check();
  await page.getByRole("button", { name: "Create webhook" }).click();

  await expect(url).toHaveAttribute("aria-invalid", "true");
  await expect(url).toHaveAccessibleDescription(/Endpoint URL must not contain credentials/);
  const under = page.locator("#wh-endpointUrl-error");
  await expect(under).toContainText("Endpoint URL must not contain credentials");
  // Under the endpoint field, not under another one.
  await expect(page.getByLabel("Name", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("signing-secret")).toHaveCount(0);
  await expectAccessible(page);
});

test("rotate a webhook's signing secret: the new one shows once, both sign until the chosen grace ends", async ({
  page,
}) => {
  await login(page);
  await page.goto("/webhooks");
  const name = `E2E rotate ${Date.now()}`;
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Endpoint URL (HTTPS)").fill("https://127.0.0.1:59999/rotate");
  await page.getByLabel("message.status.sent").check();
  await page.getByRole("button", { name: "Create webhook" }).click();
  const first = (await page.getByTestId("signing-secret").textContent()) ?? "";
  await page.getByTestId("webhook-row").filter({ hasText: name }).getByRole("link", { name }).click();
  await expect(page.getByTestId("secret-rotation-state")).toHaveText("Never rotated.");

  await page.getByLabel("Keep signing with the old secret too for").selectOption({ label: "7 days" });
  await page.getByRole("button", { name: "Rotate signing secret" }).click();
  const rotated = page.getByTestId("rotated-secret");
  await expect(rotated).toHaveText(/^whsec_/);
  const value = (await rotated.textContent()) ?? "";
  expect(value).not.toBe(first);
  await expect(page.getByTestId("secret-rotation-state")).toContainText("carry both signatures until");
  await expectAccessible(page);

  await page.reload();
  await expect(page.getByTestId("rotated-secret")).toHaveCount(0);
  expect(await page.content()).not.toContain(value);
  await expect(page.getByTestId("secret-rotation-state")).toContainText("carry both signatures until");

  // The throughput cap is set from the same page and kept.
  await page.getByLabel("Max deliveries per second (optional, 1–1000)").fill("5");
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Webhook saved").first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Max deliveries per second (optional, 1–1000)")).toHaveValue("5");
});

test("the event catalog shows every event's example body and JSON Schema", async ({ page }) => {
  await login(page);
  await page.goto("/webhooks");
  await page.getByRole("link", { name: "Event catalog: schemas and examples" }).click();
  await expect(page.getByRole("heading", { name: "Webhook events" })).toBeVisible();
  const sent = page.getByTestId("catalog-event").filter({ hasText: "message.status.sent" });
  await sent.getByText("Example body").click();
  await expect(sent).toContainText('"type": "message.status.sent"');
  await sent.getByText("JSON Schema").click();
  await expect(sent).toContainText('"$schema"');
  await expectAccessible(page);
});
