import { InspectorError } from '../../shared/model/errors.js';

/**
 * Everything a client can make a host spend has a limit (README, "What the host promises"). Each limit has a default,
 * a settings key (`limits.<name>`, for the Electron shell, which has no command line; not for the settings size) and
 * a `serve` option, which wins over the setting. Limits read at start (connections, workers, memory, message sizes) apply at the next start; the
 * evaluation timeout and the result cap apply to the next evaluation.
 */
export interface HostLimits {
  /** Largest request, in bytes of JSON (an object sent over IPC is measured as its JSON would be). */
  maxMessageBytes: number;
  /** Deepest nesting of arrays and objects in a request. */
  maxMessageDepth: number;
  /** Largest settings, in bytes of JSON. */
  maxSettingsBytes: number;
  /** Timeout of an evaluation whose request names none, counted from the request. */
  evaluationTimeoutMs: number;
  /** Results one evaluation returns at most; more are cut off and the answer says `truncated: true`. */
  maxResults: number;
  /** Old-generation heap of each XPath worker; a query that needs more ends its worker (restarted), not the host. */
  workerMemoryMb: number;
  /** XPath workers: one connection's long evaluation leaves the others a worker. */
  xpathWorkers: number;
  /** WebSocket connections at once. */
  maxConnections: number;
  /** Requests of one connection being handled at once; past it the host stops reading that connection for a while. */
  maxPendingRequests: number;
  /** Bytes queued for a WebSocket client that does not read; past it the client is dropped. */
  sendBufferBytes: number;
  /** A WebSocket client is pinged this often and dropped when it has not answered the previous ping. */
  pingIntervalMs: number;
  /** Pixels of one `screen.capture` image (width × height after scaling). */
  maxScreenPixels: number;
  /** Accessibility events waiting for one connection's subscription; past it the oldest are dropped (counted). */
  eventBuffer: number;
}

export type LimitName = keyof HostLimits;

export interface LimitDefinition {
  default: number;
  min: number;
  max: number;
  /** The `serve` option that sets it. */
  option: string;
  /** False when no settings key sets it (the settings size limit cannot come from the settings it bounds). */
  setting?: false;
}

const MiB = 1024 * 1024;

export const LIMITS: { readonly [K in LimitName]: LimitDefinition } = {
  maxMessageBytes: { default: 4 * MiB, min: 1024, max: 64 * MiB, option: '--max-message-bytes' },
  maxMessageDepth: { default: 64, min: 4, max: 1000, option: '--max-message-depth' },
  maxSettingsBytes: { default: 256 * 1024, min: 1024, max: 16 * MiB, option: '--max-settings-bytes', setting: false },
  evaluationTimeoutMs: { default: 30_000, min: 1, max: 600_000, option: '--eval-timeout' },
  maxResults: { default: 100_000, min: 1, max: 10_000_000, option: '--max-results' },
  workerMemoryMb: { default: 384, min: 32, max: 16_384, option: '--worker-memory' },
  xpathWorkers: { default: 2, min: 1, max: 8, option: '--xpath-workers' },
  maxConnections: { default: 16, min: 1, max: 1000, option: '--max-connections' },
  maxPendingRequests: { default: 32, min: 1, max: 10_000, option: '--max-pending-requests' },
  sendBufferBytes: { default: 32 * MiB, min: 64 * 1024, max: 1024 * MiB, option: '--send-buffer-bytes' },
  pingIntervalMs: { default: 30_000, min: 100, max: 3_600_000, option: '--ping-interval' },
  maxScreenPixels: { default: 3840 * 2160, min: 64 * 64, max: 8192 * 8192, option: '--max-screen-pixels' },
  eventBuffer: { default: 5000, min: 100, max: 1_000_000, option: '--event-buffer' },
};

export const LIMIT_NAMES = Object.keys(LIMITS) as LimitName[];

export const DEFAULT_LIMITS: HostLimits = Object.fromEntries(
  LIMIT_NAMES.map((name) => [name, LIMITS[name].default]),
) as unknown as HostLimits;

export function settingsKey(name: LimitName): string {
  return `limits.${name}`;
}

/** Checks one value against its bounds; the error names where it came from (`--max-results`, `limits.maxResults`). */
export function checkLimit(name: LimitName, value: unknown, source: string): number {
  const { min, max } = LIMITS[name];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new InspectorError(
      'invalid-input',
      `${source} must be a whole number from ${min} to ${max}, got ${JSON.stringify(value) ?? String(value)}`,
    );
  }
  return value;
}

/** Parses a `serve` option's text (commander's argument parser). */
export function parseLimitOption(name: LimitName): (text: string) => number {
  return (text) => {
    const { option } = LIMITS[name];
    try {
      return checkLimit(name, /^\d+$/.test(text.trim()) ? Number(text) : text, option);
    } catch (error) {
      throw new InspectorError('usage', (error as Error).message);
    }
  };
}

/**
 * The limits in force: the defaults, then the settings keys, then the overrides (the command line). A setting out of
 * its bounds is reported and ignored, so a bad settings file cannot lift or break a limit.
 */
export function resolveLimits(
  settings: { readonly [key: string]: unknown },
  overrides: Partial<HostLimits> = {},
  warn: (message: string) => void = () => undefined,
): HostLimits {
  const limits: HostLimits = { ...DEFAULT_LIMITS };
  for (const name of LIMIT_NAMES) {
    const key = settingsKey(name);
    const fromSettings = LIMITS[name].setting === false ? undefined : settings[key];
    if (fromSettings !== undefined) {
      try {
        limits[name] = checkLimit(name, fromSettings, `the setting ${key}`);
      } catch (error) {
        warn(`${(error as Error).message}; using ${limits[name]}`);
      }
    }
    const override = overrides[name];
    if (override !== undefined) limits[name] = checkLimit(name, override, LIMITS[name].option);
  }
  return limits;
}
