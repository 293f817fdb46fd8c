import { registerProviderFactory } from '../../core/registry.js';
import type { ProviderFactory } from '../../core/provider.js';
import {
  MOCK_DESCRIPTOR,
  MockProvider,
  loadMockDocument,
  mockFileOption,
  mockFileReadOptions,
} from './mock-provider.js';

/** Opt-in: the runtime only creates the mock when it is named (`--provider mock`). */
export const mockProviderFactory: ProviderFactory = {
  descriptor: MOCK_DESCRIPTOR,
  create: (context) =>
    Promise.resolve(
      new MockProvider(
        loadMockDocument(mockFileOption(context.backendOptions), mockFileReadOptions(context.backendOptions)),
      ),
    ),
};

registerProviderFactory(mockProviderFactory);
