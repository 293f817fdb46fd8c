import { InspectorError } from '../../shared/model/errors.js';
import { runtimeOptionsFrom, type RuntimeFlags } from '../backends/flags.js';
import { Runtime } from '../runtime/runtime.js';
import { startXPathWorker, XPathService } from '../xpath/xpath-service.js';

export type RuntimeCliOptions = RuntimeFlags;

export function parseNonNegativeInteger(name: string) {
  return (value: string): number => {
    if (!/^\d+$/.test(value))
      throw new InspectorError('usage', `${name} must be a non-negative integer, got "${value}"`);
    return Number(value);
  };
}

export interface CommandRuntime {
  runtime: Runtime;
  xpath: XPathService;
  close(): Promise<void>;
}

/** Opens the runtime a command works on (with only the mock provider named, on the mock platform too). */
export async function openCommandRuntime(options: RuntimeCliOptions): Promise<CommandRuntime> {
  // The XPath worker loads while the providers connect.
  const worker = startXPathWorker();
  let runtime: Runtime;
  try {
    runtime = await Runtime.create(runtimeOptionsFrom(options));
  } catch (error) {
    await worker.worker.terminate();
    throw error;
  }
  const xpath = new XPathService(runtime, worker);
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
