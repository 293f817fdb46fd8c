import type { PlatformFactory } from '../../runtime/platform.js';
import { registerPlatformFactory } from '../../runtime/registry.js';
import { MockDevices, mockDesktopInfo } from './mock-platform.js';

/** Opt-in: serves only when the config names it (`platform: 'mock'`), never by detection. */
export const mockPlatformFactory: PlatformFactory = {
  id: 'mock',
  optIn: true,
  canServe: (config) => config.backend === 'mock',
  create: (config) => Promise.resolve(new MockDevices(mockDesktopInfo(config.mockFile, config.mockMaxDepth))),
};

registerPlatformFactory(mockPlatformFactory);
