import type { Command } from 'commander';
import { InspectorError } from '../../shared/model/errors.js';
import type { RuntimeOptions } from '../runtime/runtime.js';

/** The runtime flags every front end accepts: `--provider` (repeatable), `--mock-file`, `--mock-max-depth`, `--platform`, `--call-timeout`. */
export interface RuntimeFlags {
  provider?: string[];
  mockFile?: string;
  /** The deepest nesting the mock file may have (the mock backend's `maxDepth`). */
  mockMaxDepth?: number;
  platform?: string;
  callTimeout?: number;
}

/**
 * The runtime options the flags mean; the one place a flag is turned into a backend's own option. `--mock-file` is
 * the mock backend's `file`, which also names the mock provider; which platform goes with the providers is the
 * registry's decision (chooseBackends).
 */
export function runtimeOptionsFrom(flags: RuntimeFlags): RuntimeOptions {
  return {
    providers: flags.provider ?? [],
    providerOptions: flags.callTimeout ? { callTimeoutMs: flags.callTimeout } : {},
    backendOptions: flags.mockFile
      ? {
          mock: { file: flags.mockFile, ...(flags.mockMaxDepth !== undefined ? { maxDepth: flags.mockMaxDepth } : {}) },
        }
      : {},
    ...(flags.platform ? { platform: flags.platform } : {}),
  };
}

export function parseNonNegativeInteger(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value))
      throw new InspectorError('usage', `${name} must be a non-negative integer, got "${value}"`);
    return Number(value);
  };
}

function repeated(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** Declares the runtime flags on a command (every CLI command that reads the tree, and `serve`). */
export function addRuntimeOptions(command: Command): Command {
  return command
    .option('--provider <id>', 'provider to read the tree with (repeatable): atspi, mock', repeated)
    .option('--mock-file <xml>', 'tree for the mock provider, in the snapshot XML format (implies --provider mock)')
    .option(
      '--mock-max-depth <levels>',
      'deepest nesting the mock file may have (default 4096)',
      parseNonNegativeInteger('--mock-max-depth'),
    )
    .option('--platform <backend>', 'platform backend: x11, mock or none (default: detected)');
}
