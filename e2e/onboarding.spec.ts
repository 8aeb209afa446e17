import { expect, test } from "@playwright/test";
import { expectAccessible, hydrated, saveScreenshot } from "./helpers";

// A new self-serve account, guided by the checklist on the dashboard home: adds a sender
// (simulator mode: a simulated phone number id at once, on a business account that has the
// provider's approved sample template hello_world), creates a token, sends hello_world from
// the composer (paid by the welcome credit) and sees it delivered, the checklist counting each step.
test("a new account is guided by the checklist to a sender, a token and a delivered first message", async ({
  page,
}) => {
  const stamp = String(Date.now());
  await page.goto("/signup");
  await page.getByLabel("Company name").fill("Onboarding Co");
  await page.getByLabel("Work email").fill(`onboard-${stamp}@example.com`);
  await page.getByLabel("Password (at least 10 characters)").fill("a-long-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("onboarding-progress")).toHaveText("0 of 4");
  // Get started says what pays for the first messages (docs/api/billing.md "Welcome credit").
  await expect(page.getByTestId("welcome-credit")).toContainText("a welcome credit of USD 10.00");
  await expect(page.getByTestId("welcome-credit").getByRole("link", { name: "See the ledger" })).toBeVisible();

  await page.getByTestId("step-sender").getByRole("link", { name: "Add a sender" }).click();
  await expect(page).toHaveURL(/\/senders/);
  const phone = `+1415557${stamp.slice(-4)}`;
  await page.getByLabel("Phone number (with + and country code)").fill(phone);
  await page.getByRole("button", { name: "Add sender" }).click();
  const row = page.getByRole("row").filter({ hasText: phone });
  await expect(row).toContainText("default");
  await expect(row).toContainText("Complete");
  const phoneNumberId = (await row.getByRole("cell").nth(2).textContent())?.trim() ?? "";
  expect(phoneNumberId).toMatch(/^9\d{14}$/);
  await expectAccessible(page);

  await page.goto("/");
  await expect(page.getByTestId("onboarding-progress")).toHaveText("1 of 4");
  await page.getByTestId("step-token").getByRole("link", { name: "Create an API token" }).click();
  await page.getByLabel("Name").fill("first token");
  await page.getByRole("button", { name: "Generate token" }).click();
  const token = (await page.getByTestId("new-token").textContent())?.trim() ?? "";
  expect(token).toMatch(/^swb_live_/);

  await page.goto("/");
  await expect(page.getByTestId("onboarding-progress")).toHaveText("2 of 4");
  await page.getByTestId("step-message").getByRole("link", { name: "Send a first message" }).click();
  await expect(page).toHaveURL(/\/messages/);
  // No template of its own yet: the provider's approved sample is offered, and the welcome
  // credit of simulator mode pays for it (docs/api/billing.md "Welcome credit"): the first
  // message is a template to a contact who never wrote.
  await expect(page.getByLabel("Template", { exact: true })).toHaveValue("hello_world|en_US");
  const recipient = `+1415558${stamp.slice(-4)}`;
  await page.getByRole("radio", { name: "Approved template" }).check();
  // A controlled input: filled before hydration, React would reset it.
  await hydrated(page.getByLabel("Recipient (with + and country code)"));
  await page.getByLabel("Recipient (with + and country code)").fill(recipient);
  await page.getByRole("button", { name: "Send" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Accepted:" })).toBeVisible();
  const sent = page.getByTestId("message-row").filter({ hasText: recipient });
  // The simulator's signed status callbacks move it on: delivered, then read (e2e read rate 1).
  await expect(sent.getByText(/^(delivered|read)$/)).toBeVisible({ timeout: 30_000 });
  // Delivered, as the API tells it with the account's new token.
  await expect
    .poll(
      async () => {
        const res = await page.request.get(`/api/v3/reports/messages?recipient=${encodeURIComponent(recipient)}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        const body = await res.json();
        return body.data?.messages?.[0]?.deliveredAt ?? null;
      },
      { timeout: 30_000 },
    )
    .toMatch(/^\d{4}-\d\d-\d\dT/);

  await page.goto("/");
  await expect(page.getByTestId("onboarding-progress")).toHaveText("3 of 4");
  await expectAccessible(page);
  await saveScreenshot(page, "onboarding-checklist");
});
