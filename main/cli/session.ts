import { Runtime } from '../runtime/runtime.js';
import { XPathService } from '../xpath/xpath-service.js';

export interface RuntimeCliOptions {
  provider?: string[];
  mockFile?: string;
  mockMaxDepth?: number;
  platform?: string;
  callTimeout?: number;
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
      ...(options.mockMaxDepth !== undefined ? { mockMaxDepth: options.mockMaxDepth } : {}),
      ...(options.callTimeout ? { callTimeoutMs: options.callTimeout } : {}),
    },
    ...(platform ? { platform } : {}),
  });
  const xpath = new XPathService(runtime);
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
