import { describe, expect, it } from "vitest";
import { threadTimeOf } from "./thread-time";

const at = (seconds: number) => new Date(seconds * 1000);

describe("an inbound message's place in its thread", () => {
  it("takes its arrival time within its own second", () => {
    expect(threadTimeOf(at(10), 10_400).getTime()).toBe(10_400);
  });

  it("processed late, takes the last moment of its own second", () => {
    expect(threadTimeOf(at(10), 12_100).getTime()).toBe(10_999);
  });

  it("keeps the arrival order when some of the messages are processed late", () => {
    // a (second 10) is processed at 11.2 s, b (second 11) at 11.5 s, c (second 11) at 12.1 s.
    const a = threadTimeOf(at(10), 11_200).getTime();
    const b = threadTimeOf(at(11), 11_500).getTime();
    const c = threadTimeOf(at(11), 12_100).getTime();
    expect(a).toBeLessThan(b);
    expect(b).toBeLessThan(c);
  });

  it("a timestamp ahead of our clock takes our clock", () => {
    expect(threadTimeOf(at(20), 12_000).getTime()).toBe(12_000);
  });
});
