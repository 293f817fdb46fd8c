import { runtimeOptionsFrom, type RuntimeFlags } from '../backends/flags.js';
import { Runtime } from '../runtime/runtime.js';
import { DEFAULT_LIMITS } from '../api/limits.js';
import { XPathService } from '../xpath/xpath-service.js';

export type RuntimeCliOptions = RuntimeFlags;

export interface CommandRuntime {
  runtime: Runtime;
  xpath: XPathService;
  close(): Promise<void>;
}

/** Opens the runtime a command works on (with only the mock provider named, on the mock platform too). */
export async function openCommandRuntime(options: RuntimeCliOptions): Promise<CommandRuntime> {
  const runtime = await Runtime.create(runtimeOptionsFrom(options));
  const xpath = new XPathService(runtime, { workerMemoryMb: DEFAULT_LIMITS.workerMemoryMb });
  await xpath.warmUp();
  return {
    runtime,
    xpath,
    close: async () => {
      reportDegradedProviders(runtime);
      await xpath.close();
      await runtime.shutdown();
    },
  };
}

/** Names on stderr what a provider could not fully deliver (a hung application shown without its children). */
function reportDegradedProviders(runtime: Runtime): void {
  for (const provider of runtime.providers) {
    const status = provider.status();
    if (status.state === 'degraded' && status.message) {
      process.stderr.write(`warning: ${provider.descriptor.id}: ${status.message}\n`);
    }
  }
}
