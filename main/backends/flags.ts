import type { Command } from 'commander';
import type { RuntimeOptions } from '../runtime/runtime.js';

/** The runtime flags every front end accepts: `--provider` (repeatable), `--mock-file`, `--platform`, `--call-timeout`. */
export interface RuntimeFlags {
  provider?: string[];
  mockFile?: string;
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
    backendOptions: flags.mockFile ? { mock: { file: flags.mockFile } } : {},
    ...(flags.platform ? { platform: flags.platform } : {}),
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
    .option('--platform <backend>', 'platform backend: x11, mock or none (default: detected)');
}
