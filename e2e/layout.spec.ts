import { expect, test } from "@playwright/test";
import { expectAccessible, login, saveScreenshot } from "./helpers";

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
  // The chosen sender follows the navigation.
  await page.getByRole("link", { name: "Webhooks" }).click();
  await expect(page).toHaveURL(/\/webhooks\?sender=/);
  await expect(page.getByText(/Destinations for sender/)).toContainText(one);
  await expectAccessible(page);
  await page.getByRole("button", { name: "Light mode" }).click();
  await saveScreenshot(page, "phone-layout");
});
