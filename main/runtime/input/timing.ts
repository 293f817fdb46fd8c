/** Clock used by the input controllers; tests pass a recording fake so no real time passes. */
export interface InputClock {
  sleep(ms: number): Promise<void>;
  now(): number;
}

export const realClock: InputClock = {
  sleep: (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()),
  now: () => performance.now(),
};

/**
 * A clock whose sleeps fail with the signal's reason once it is aborted: a controller then stops between two steps
 * and its own cleanup releases the keys and buttons it holds, where ending the process would leave them down.
 */
export function abortableClock(signal: AbortSignal, base: InputClock = realClock): InputClock {
  return {
    now: () => base.now(),
    sleep: (ms) => {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (ms <= 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal.reason);
        };
        const timer = setTimeout(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
}

/** Applies per-call overrides to a profile: only keys whose value is not undefined replace the profile's. */
export function applyOverrides<T extends object>(profile: T, overrides: Partial<T> | undefined): T {
  if (!overrides) return { ...profile };
  const out = { ...profile };
  for (const key of Object.keys(overrides) as (keyof T)[]) {
    const value = overrides[key];
    if (value !== undefined && key in profile) out[key] = value as T[keyof T];
  }
  return out;
}
