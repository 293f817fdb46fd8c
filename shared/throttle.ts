/**
 * Runs `run` at most once per `intervalMs`, on the leading edge: a request after a quiet spell runs at once, requests
 * within the interval after a run are gathered into one run at the interval's end. So a lone change is never delayed
 * and a storm costs one run per interval.
 */
export interface Throttle {
  request(): void;
  cancel(): void;
}

export function leadingThrottle(run: () => void, intervalMs: number, now: () => number = () => Date.now()): Throttle {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = now();
    run();
  };
  return {
    request() {
      if (timer) return;
      const wait = last + intervalMs - now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
