import type { PlatformFactory } from '../../core/platform.js';
import { registerPlatformFactory } from '../../core/registry.js';
import { mockFileOption, mockFileReadOptions } from '../../providers/mock/mock-provider.js';
import { MockDevices, mockDesktopInfo } from './mock-platform.js';

/** Opt-in: serves only when the config names it (`platform: 'mock'`), never by detection. */
export const mockPlatformFactory: PlatformFactory = {
  id: 'mock',
  optIn: true,
  canServe: (config) => config.backend === 'mock',
  create: (config) =>
    Promise.resolve(
      new MockDevices(
        mockDesktopInfo(mockFileOption(config.backendOptions), mockFileReadOptions(config.backendOptions).maxDepth),
      ),
    ),
};

registerPlatformFactory(mockPlatformFactory);
