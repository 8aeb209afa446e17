// A background pass run once at start and then every `intervalMs` after the previous pass
// ended (never two at once); a failed pass is logged and the next one retries. stop() waits
// for a running pass. Used by the hourly retention passes (lib/background.ts).
import { log } from "./log";

export function startPeriodic(
  name: string,
  intervalMs: number,
  pass: () => Promise<number>,
): { stop: () => Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const run = () => {
    running = pass()
      .then((count) => {
        if (count > 0) log.info({ count }, `${name}: rows past retention deleted`);
      })
      .catch((error: unknown) => log.warn({ err: error }, `${name} failed; the next pass retries`))
      .finally(() => {
        if (!stopped) timer = setTimeout(run, intervalMs);
      });
  };
  run();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
