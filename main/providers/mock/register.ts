import { registerProviderFactory } from '../../runtime/registry.js';
import type { ProviderFactory } from '../../runtime/provider.js';
import { MOCK_DESCRIPTOR, MockProvider, loadMockDocument } from './mock-provider.js';

/** Opt-in: the runtime only creates the mock when it is named (`--provider mock`). */
export const mockProviderFactory: ProviderFactory = {
  descriptor: MOCK_DESCRIPTOR,
  create: (context) => {
    const maxDepth = context.options.mockMaxDepth;
    const document = loadMockDocument(context.options.mockFile, maxDepth !== undefined ? { maxDepth } : {});
    return Promise.resolve(new MockProvider(document));
  },
};

registerProviderFactory(mockProviderFactory);
