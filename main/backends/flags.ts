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
