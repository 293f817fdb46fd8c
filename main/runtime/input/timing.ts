/** Clock used by the input controllers; tests pass a recording fake so no real time passes. */
export interface InputClock {
  sleep(ms: number): Promise<void>;
  now(): number;
}

export const realClock: InputClock = {
  sleep: (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()),
  now: () => performance.now(),
};

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
