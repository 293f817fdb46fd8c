import { runtimeOptionsFrom, type RuntimeFlags } from '../backends/flags.js';
import { Runtime } from '../runtime/runtime.js';
import { DEFAULT_LIMITS } from '../api/limits.js';
import { spawnXPathWorker } from '../xpath/worker-lane.js';
import { XPathService } from '../xpath/xpath-service.js';

export type RuntimeCliOptions = RuntimeFlags;

export interface CommandRuntime {
  runtime: Runtime;
  xpath: XPathService;
  close(): Promise<void>;
}

/** Opens the runtime a command works on (with only the mock provider named, on the mock platform too). */
export async function openCommandRuntime(options: RuntimeCliOptions): Promise<CommandRuntime> {
  // The XPath worker loads while the providers connect.
  const prestarted = spawnXPathWorker(DEFAULT_LIMITS.workerMemoryMb);
  let runtime: Runtime;
  try {
    runtime = await Runtime.create(runtimeOptionsFrom(options));
  } catch (error) {
    await prestarted.worker.terminate();
    throw error;
  }
  const xpath = new XPathService(runtime, { workerMemoryMb: DEFAULT_LIMITS.workerMemoryMb, prestarted });
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
