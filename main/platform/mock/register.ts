import type { PlatformFactory } from '../../core/platform.js';
import { registerPlatformFactory } from '../../core/registry.js';
import { mockFileOption, mockFileReadOptions } from '../../providers/mock/descriptor.js';

/**
 * Opt-in: serves only when the config names it (`platform: 'mock'`), never by detection. Its devices (and the mock
 * file reader) are imported when a runtime creates it.
 */
export const mockPlatformFactory: PlatformFactory = {
  id: 'mock',
  optIn: true,
  canServe: (config) => config.backend === 'mock',
  create: async (config) => {
    const { MockDevices, mockDesktopInfo } = await import('./mock-platform.js');
    return new MockDevices(
      mockDesktopInfo(mockFileOption(config.backendOptions), mockFileReadOptions(config.backendOptions).maxDepth),
    );
  },
};

registerPlatformFactory(mockPlatformFactory);
