import type { Capabilities } from '../../shared/api/schema.js';
import type { Runtime } from '../runtime/runtime.js';

/** What a host adds to its runtime's devices: a highlight drawn without a highlight device, a way to stop it. */
export interface HostFeatures {
  readonly highlightFallback: unknown;
  readonly hostStop: (() => void) | undefined;
}

/** What the runtime's platform and providers, and the host, can do, as the `status` method reports it. */
export function capabilitiesOf(runtime: Runtime, host: HostFeatures): Capabilities {
  const platform = runtime.platform;
  return {
    pick: platform?.pointer !== undefined,
    highlight: platform?.highlight !== undefined || host.highlightFallback !== undefined,
    followFocus: runtime.providers.some(
      (provider) => provider.descriptor.eventCapabilities === 'StructureWithProperties',
    ),
    locators: true,
    stop: host.hostStop !== undefined,
    screen: platform?.screenshot !== undefined,
    interact: platform?.pointer !== undefined && platform.keyboard !== undefined,
    record: platform?.inputRecorder !== undefined,
  };
}
