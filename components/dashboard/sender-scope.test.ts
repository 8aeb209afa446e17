import { describe, expect, it } from "vitest";
import { isSenderScopedPage, noSenderChoiceLabel } from "./sender-scope";

describe("the header's no-sender choice", () => {
  it("names the default sender on pages that act on one sender", () => {
    for (const path of [
      "/messages",
      "/analytics",
      "/webhooks",
      "/webhooks/wh_1",
      "/blacklist",
      "/chatbots/new",
      "/broadcasts/new",
    ]) {
      expect(isSenderScopedPage(path)).toBe(true);
      expect(noSenderChoiceLabel(path, "+15550100001")).toBe("Default sender: +15550100001");
    }
  });

  it("says all senders where the page really shows every sender", () => {
    for (const path of ["/billing", "/billing/ledger", "/inbox", "/contacts", "/tokens", "/", "/chatbots/cb_1"]) {
      expect(isSenderScopedPage(path)).toBe(false);
      expect(noSenderChoiceLabel(path, "+15550100001")).toBe("All senders");
    }
  });
});
