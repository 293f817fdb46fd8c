import type { Severity } from './model.js';

/**
 * The `--config FILE` a CI job keeps beside its tests:
 * `{"rules": {"poor-name": "off", "geometry": "error"}, "ignore": [{"locator": "//Button[@Name='x']", "rule": "poor-name"}]}`.
 * A rule set to a severity is on with that severity; "off" switches it off. An ignore entry without `rule` ignores
 * every finding on the nodes its locator selects.
 */
export interface CheckConfig {
  readonly rules: ReadonlyMap<string, Severity | 'off'>;
  readonly ignore: readonly IgnoreEntry[];
}

export interface IgnoreEntry {
  readonly locator: string;
  readonly rule?: string;
  readonly reason?: string;
}

export const EMPTY_CHECK_CONFIG: CheckConfig = { rules: new Map(), ignore: [] };

/** A config file that cannot be used: the message names the file, the JSON path and what was expected. */
export class CheckConfigError extends Error {}
