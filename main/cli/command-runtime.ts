import type { ApplicationReach } from '../../shared/xpath/fast/reach.js';
import { runtimeOptionsFrom, type RuntimeFlags } from '../backends/flags.js';
import { prefetchApplications } from '../runtime/application-prefetch.js';
import { Runtime } from '../runtime/runtime.js';
import { DEFAULT_LIMITS } from '../api/limits.js';
import { spawnXPathWorker } from '../xpath/worker-lane.js';
import { XPathService } from '../xpath/xpath-service.js';

export type RuntimeCliOptions = RuntimeFlags;

export interface CommandRuntime {
  runtime: Runtime;
  /** The XPath service; for a command opened without one (OpenOptions.xpath false), started on first use. */
  readonly xpath: XPathService;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** The applications the command's query will walk: their trees start loading while the XPath worker starts. */
  prefetch?: ApplicationReach;
  /**
   * False for a command that evaluates no XPath (pick): no worker is started and waited for up front (default
   * true: the worker loads while the providers connect).
   */
  xpath?: boolean;
}

/** Opens the runtime a command works on (with only the mock provider named, on the mock platform too). */
export async function openCommandRuntime(
  options: RuntimeCliOptions,
  { prefetch, xpath: wantsXPath = true }: OpenOptions = {},
): Promise<CommandRuntime> {
  // The XPath worker loads while the providers connect.
  const prestarted = wantsXPath ? spawnXPathWorker(DEFAULT_LIMITS.workerMemoryMb) : undefined;
  let runtime: Runtime;
  try {
    runtime = await Runtime.create(runtimeOptionsFrom(options));
  } catch (error) {
    await prestarted?.worker.terminate();
    throw error;
  }
  if (prefetch) prefetchApplications(runtime, prefetch);
  let service: XPathService | undefined;
  const xpathService = () =>
    (service ??= new XPathService(runtime, {
      workerMemoryMb: DEFAULT_LIMITS.workerMemoryMb,
      ...(prestarted ? { prestarted } : {}),
    }));
  if (wantsXPath) await xpathService().warmUp();
  return {
    runtime,
    get xpath() {
      return xpathService();
    },
    close: async () => {
      reportDegradedProviders(runtime);
      await service?.close();
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
