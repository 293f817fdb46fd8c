import { InspectorError } from '../../shared/model/errors.js';
import { Runtime } from '../runtime/runtime.js';
import { DEFAULT_LIMITS } from '../api/limits.js';
import { XPathService } from '../xpath/xpath-service.js';

export interface RuntimeCliOptions {
  provider?: string[];
  mockFile?: string;
  platform?: string;
  callTimeout?: number;
}

/** Options every command that reads the tree accepts. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function parseNonNegativeInteger(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value))
      throw new InspectorError('usage', `${name} must be a non-negative integer, got "${value}"`);
    return Number(value);
  };
}

export interface CliSession {
  runtime: Runtime;
  xpath: XPathService;
  close(): Promise<void>;
}

/**
 * Opens the runtime a command works on. With only the mock provider named, the mock platform is used too, so that a
 * mock run is deterministic on any machine.
 */
export async function openSession(options: RuntimeCliOptions): Promise<CliSession> {
  if (options.mockFile && !(options.provider ?? []).includes('mock')) {
    options.provider = [...(options.provider ?? []), 'mock'];
  }
  const providers = options.provider ?? [];
  const onlyMock = providers.length > 0 && providers.every((id) => id === 'mock');
  const platform = options.platform ?? (onlyMock ? 'mock' : undefined);
  const runtime = await Runtime.create({
    providers,
    providerOptions: {
      ...(options.mockFile ? { mockFile: options.mockFile } : {}),
      ...(options.callTimeout ? { callTimeoutMs: options.callTimeout } : {}),
    },
    ...(platform ? { platform } : {}),
  });
  const xpath = new XPathService(runtime, { workerMemoryMb: DEFAULT_LIMITS.workerMemoryMb });
  await xpath.warmUp();
  return {
    runtime,
    xpath,
    close: async () => {
      await xpath.close();
      await runtime.shutdown();
    },
  };
}
