// The built-in simulator behind a recorder: every provider call's recipient, time and answer,
// as the provider saw them, and an optional delay per call (a slow provider widens the
// windows races happen in). Installed as the process's provider (setProvider); `restore`
// puts the default back.
import { setProvider } from "@/lib/domains/provider/client";
import { ProviderSimulator, type SimulatorOptions, simulatorOptionsFromEnv } from "@/lib/domains/provider/simulator";

export type RecordedCall = { to: string; at: number; accepted: boolean; code: number | null };

export type RecordingProvider = {
  simulator: ProviderSimulator;
  calls: RecordedCall[];
  /** The recipients (E.164) of calls the provider accepted. */
  acceptedTo(): Set<string>;
  restore(): void;
};

export function installRecordingProvider(
  options: { delayMs?: () => number; simulator?: Partial<SimulatorOptions> } = {},
): RecordingProvider {
  const simulator = new ProviderSimulator({ ...simulatorOptionsFromEnv(), ...options.simulator });
  const calls: RecordedCall[] = [];
  const send = simulator.sendMessage.bind(simulator);
  simulator.sendMessage = async (sender, payload, hints) => {
    const delay = options.delayMs?.() ?? 0;
    if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    const at = Date.now();
    const outcome = await send(sender, payload, hints);
    calls.push({
      to: `+${payload.to.replace(/^\+/, "")}`,
      at,
      accepted: outcome.ok,
      code: outcome.ok ? null : outcome.code,
    });
    return outcome;
  };
  setProvider(simulator);
  return {
    simulator,
    calls,
    acceptedTo: () => new Set(calls.filter((c) => c.accepted).map((c) => c.to)),
    restore: () => setProvider(undefined),
  };
}
