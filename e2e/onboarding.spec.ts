import { expect, test } from "@playwright/test";
import { expectAccessible, saveScreenshot } from "./helpers";

// A new self-serve account, guided by the checklist on the dashboard home: adds a sender
// (simulator mode: a simulated phone number id at once), creates a token, creates a
// template with it through the API (the simulator approves it), sends that template from
// the composer (a contact who never wrote gets templates only) and sees it delivered.
test("a new account is guided from sign-up to a delivered first message", async ({ page, request }) => {
  const stamp = String(Date.now());
  await page.goto("/signup");
  await page.getByLabel("Company name").fill("Onboarding Co");
  await page.getByLabel("Work email").fill(`onboard-${stamp}@example.com`);
  await page.getByLabel("Password (at least 10 characters)").fill("a-long-password-1");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByTestId("onboarding-progress")).toHaveText("0 of 4");

  await page.getByTestId("step-sender").getByRole("link", { name: "Add a sender" }).click();
  await expect(page).toHaveURL(/\/senders/);
  const phone = `+1415557${stamp.slice(-4)}`;
  await page.getByLabel("Phone number (E.164)").fill(phone);
  await page.getByRole("button", { name: "Add sender" }).click();
  const row = page.getByRole("row").filter({ hasText: phone });
  await expect(row).toContainText("default");
  await expect(row).toContainText("Complete");
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
  const created = await request.post("/api/v3/templates", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      template: { name: "welcome", language: "en", category: "utility", components: [{ type: "BODY", text: "Hi" }] },
    },
  });
  expect(created.status()).toBe(201);
  await expect
    .poll(
      async () => {
        const list = await request.get("/api/v3/templates", { headers: { Authorization: `Bearer ${token}` } });
        return (await list.json()).data.templates[0]?.status;
      },
      { timeout: 30_000 },
    )
    .toBe("APPROVED");

  await page.getByTestId("step-message").getByRole("link", { name: "Send a first message" }).click();
  const to = `+1415558${stamp.slice(-4)}`;
  await page.getByLabel("Recipient (E.164)").fill(to);
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "welcome (en, utility)" });
  await page.getByRole("button", { name: "Send" }).click();
  const sent = page.getByTestId("message-row").filter({ hasText: to });
  await expect(sent.getByText(/^(delivered|read)$/)).toBeVisible({ timeout: 30_000 });

  await page.goto("/");
  await expect(page.getByTestId("onboarding-progress")).toHaveText("3 of 4");
  await expect(page.getByTestId("step-webhook").getByRole("link", { name: "Add a webhook" })).toBeVisible();
  await expectAccessible(page);
  await saveScreenshot(page, "onboarding-checklist");
});
