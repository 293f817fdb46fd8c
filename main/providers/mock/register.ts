import { registerFileTreeReader, registerProviderFactory } from '../../core/registry.js';
import type { ProviderFactory } from '../../core/provider.js';
import { MOCK_DESCRIPTOR, mockFileOption, mockFileReadOptions } from './descriptor.js';

/**
 * Opt-in: the runtime only creates the mock when it is named (`--provider mock`). Registering loads only the
 * descriptor; the provider (with its XML reader) is imported when a runtime creates it.
 */
export const mockProviderFactory: ProviderFactory = {
  descriptor: MOCK_DESCRIPTOR,
  create: async (context) => {
    const { MockProvider, loadMockDocument } = await import('./mock-provider.js');
    return new MockProvider(
      loadMockDocument(mockFileOption(context.backendOptions), mockFileReadOptions(context.backendOptions)),
    );
  },
};

registerProviderFactory(mockProviderFactory);
// Its file read without a runtime (the CLI's query and snapshot over a mock file alone).
registerFileTreeReader(MOCK_DESCRIPTOR.id, async () => (await import('./file-reader.js')).mockFileTreeReader);
