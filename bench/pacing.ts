// The pacing check of bench:broadcast (a): what the provider saw of a paced broadcast, judged
// as a provider may count it (docs/api/limits.md "What the simulator enforces"): every call in
// any 1,000 ms (a sliding window, refused calls included) at most the throughput plus the
// documented burst, none refused for throughput, and the achieved rate within 5% of the
// throughput over the whole run. test/pacing-check.test.ts proves it can fail.

import { THROUGHPUT_BURST } from "@/lib/domains/provider/simulator-limits";
import { mostInAnyWindow } from "@/lib/domains/provider/sliding-window";

/** One provider call: when it was made, and the refusal code when the provider refused it. */
export type ProviderCall = { at: number; refusedWith?: number };

export type PacingVerdict = {
  /** Accepted messages per second between the first and the last accepted call. */
  rate: number;
  mostInAnyWindow: number;
  /** The most any 1,000 ms may hold: the throughput plus the documented burst. */
  windowLimit: number;
  refused: number;
  problems: string[];
};

export function checkPacing(calls: readonly ProviderCall[], throughput: number): PacingVerdict {
  const accepted = calls.filter((c) => c.refusedWith === undefined).map((c) => c.at);
  const first = Math.min(...accepted);
  const last = Math.max(...accepted);
  const rate = accepted.length > 1 && last > first ? ((accepted.length - 1) * 1000) / (last - first) : 0;
  const most = mostInAnyWindow(calls.map((c) => c.at));
  const windowLimit = throughput + THROUGHPUT_BURST;
  const refused = calls.filter((c) => c.refusedWith === 130429).length;
  const problems: string[] = [];
  if (Math.abs(rate - throughput) > throughput * 0.05)
    problems.push(`rate ${rate.toFixed(1)}/s is not within 5% of ${throughput}/s`);
  if (most > windowLimit) problems.push(`${most} calls in one 1,000 ms (at most ${windowLimit})`);
  if (refused > 0) problems.push(`${refused} refused for throughput (130429)`);
  return { rate, mostInAnyWindow: most, windowLimit, refused, problems };
}
