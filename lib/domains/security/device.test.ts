import { expect, it } from "vitest";
import { deviceLabel } from "./device";

it("labels common user agents", () => {
  expect(deviceLabel("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0 Safari/537.36")).toBe(
    "Chrome on Linux",
  );
  expect(deviceLabel("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0")).toBe(
    "Firefox on Windows",
  );
  expect(deviceLabel("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile Safari/604.1")).toBe(
    "Safari on iOS",
  );
  expect(deviceLabel(null)).toBe("Unknown device");
});
