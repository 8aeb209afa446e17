import { describe, expect, it } from "vitest";
import { slaState } from "./display";

const base = {
  policyUid: "sla_1",
  firstResponseDueAt: null,
  nextResponseDueAt: null,
  resolutionDueAt: null,
  breaches: [],
};
const now = Date.parse("2026-11-29T12:00:00Z");
const at = (minutes: number) => new Date(now + minutes * 60_000).toISOString();

describe("slaState", () => {
  it("no policy or nothing due: nothing shown", () => {
    expect(slaState(null, now)).toBeNull();
    expect(slaState(base, now)).toBeNull();
  });
  it("the soonest due time: ok, amber within 15 minutes, red once passed or breached", () => {
    expect(slaState({ ...base, firstResponseDueAt: at(30), resolutionDueAt: at(20) }, now)).toEqual({
      state: "ok",
      dueAt: at(20),
    });
    expect(slaState({ ...base, firstResponseDueAt: at(15) }, now)?.state).toBe("soon");
    expect(slaState({ ...base, firstResponseDueAt: at(0) }, now)?.state).toBe("breached");
    expect(slaState({ ...base, resolutionDueAt: at(600), breaches: ["first_response"] }, now)).toEqual({
      state: "breached",
      dueAt: at(600),
    });
  });
});
