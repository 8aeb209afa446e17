import { describe, expect, it } from "vitest";
import { alertMessage } from "./form-alert";

describe("alertMessage", () => {
  const short = "Password must be at least 10 characters";

  it("is null when a shown field already says the message", () => {
    expect(alertMessage({ message: short, fields: { password: short } }, ["email", "password"])).toBeNull();
  });

  it("keeps the message when no field says it, or a field is not shown", () => {
    expect(alertMessage({ message: "This invitation has expired" }, ["password"])).toBe("This invitation has expired");
    expect(alertMessage({ message: "token: Required", fields: { token: "Required" } }, ["password"])).toBe(
      "token: Required",
    );
    expect(alertMessage({ message: "Email already registered", fields: { password: short } }, ["password"])).toBe(
      "Email already registered",
    );
  });
});
