/**
 * A time limit for a long end-to-end test that names the step it was stuck in. The test marks its steps; when the
 * limit passes, the watchdog records the step and calls `onStuck`, which ends what the test waits on (the host, the
 * browser), so the pending step rejects and the test fails with `failure()` instead of hanging the whole run.
 */
export interface Watchdog {
  /** Marks the start of a step. */
  step(name: string): void;
  /** Why the test was stopped (the step and how long it had taken), or undefined while the limit holds. */
  failure(): string | undefined;
  stop(): void;
}

export function startWatchdog(limitMs: number, onStuck: () => void): Watchdog {
  let current = 'start';
  let since = Date.now();
  let stuck: string | undefined;
  const timer = setTimeout(() => {
    stuck = `stopped after ${limitMs} ms, stuck for ${Date.now() - since} ms in step "${current}"`;
    onStuck();
  }, limitMs);
  return {
    step(name) {
      current = name;
      since = Date.now();
    },
    failure: () => stuck,
    stop: () => clearTimeout(timer),
  };
}
