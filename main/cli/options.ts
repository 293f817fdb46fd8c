import { InspectorError } from '../../shared/model/errors.js';
import type { Runtime } from '../runtime/runtime.js';
import type { AttributeSelection } from '../services/snapshot.js';

export { addRuntimeOptions, parseNonNegativeInteger } from '../backends/flags.js';

export function parseAttrs(value: string): AttributeSelection {
  if (value !== 'none' && value !== 'default' && value !== 'all') {
    throw new InspectorError('usage', `--attrs must be none, default or all, got "${value}"`);
  }
  return value;
}

/** The longest a timer can wait: Node's limit for setTimeout (2^31 - 1 ms, about 24.8 days); longer fires at once. */
export const MAX_MILLISECONDS = 2_147_483_647;

/** A parser for an option that is a whole number of milliseconds from `minimum` to MAX_MILLISECONDS. */
export function parseMilliseconds(option: string, minimum: 0 | 1): (value: string) => number {
  return (value) => {
    const ms = /^\d+$/.test(value) ? Number(value) : Number.NaN;
    if (!(ms >= minimum && ms <= MAX_MILLISECONDS)) {
      throw new InspectorError(
        'usage',
        `${option} must be a whole number of milliseconds from ${minimum} to ${MAX_MILLISECONDS}, got "${value}"`,
      );
    }
    return ms;
  };
}

export const parseTimeout = parseMilliseconds('--timeout', 1);

/**
 * Starts measuring a command's work (after start-up): `--stats` then reports the time since and the nodes the
 * providers materialized since.
 */
export function measureStats(runtime: Runtime): { write(results: number): void } {
  const started = performance.now();
  const fetchedBefore = runtime.nodesFetched;
  return {
    write: (results) =>
      writeStats({ evalMs: performance.now() - started, nodesFetched: runtime.nodesFetched - fetchedBefore, results }),
  };
}

export function writeStats(stats: { evalMs: number; nodesFetched: number; results: number }): void {
  process.stderr.write(
    `${JSON.stringify({ evalMs: Math.round(stats.evalMs * 1000) / 1000, nodesFetched: stats.nodesFetched, results: stats.results })}\n`,
  );
}
