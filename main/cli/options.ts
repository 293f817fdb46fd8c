import { InspectorError } from '../../shared/model/errors.js';
import type { Runtime } from '../runtime/runtime.js';
import type { AttributeSelection } from '../services/snapshot.js';

export { addRuntimeOptions } from '../backends/flags.js';

export function parseAttrs(value: string): AttributeSelection {
  if (value !== 'none' && value !== 'default' && value !== 'all') {
    throw new InspectorError('usage', `--attrs must be none, default or all, got "${value}"`);
  }
  return value;
}

export function parseTimeout(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) <= 0) {
    throw new InspectorError('usage', `--timeout must be a positive number of milliseconds, got "${value}"`);
  }
  return Number(value);
}

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
