import type { ProviderStatusInfo } from '../../shared/api/schema.js';
import type { Runtime } from '../runtime/runtime.js';

/** How each of the runtime's providers is doing, as the API reports it. */
export function providerStatus(runtime: Runtime): ProviderStatusInfo[] {
  return runtime.providers.map((provider) => {
    const status = provider.status();
    return {
      id: provider.descriptor.id,
      displayName: provider.descriptor.displayName,
      technology: provider.descriptor.technology,
      state: status.state,
      ...(status.message ? { message: status.message } : {}),
    };
  });
}
