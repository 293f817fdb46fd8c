import { backendOption, type BackendOptions } from '../../core/backend-options.js';
import type { ProviderDescriptor } from '../../core/provider.js';

/** What the registry and the mock platform need of the mock provider, without loading it (or its XML reader). */
export const MOCK_DESCRIPTOR: ProviderDescriptor = {
  id: 'mock',
  displayName: 'Mock provider',
  technology: 'Mock',
  kind: 'mock',
  eventCapabilities: 'StructureWithProperties',
  optIn: true,
  defaultOn: [],
  pairedPlatform: 'mock',
};

/** The mock backend's own option: the snapshot XML both the mock provider and the mock platform read. */
export function mockFileOption(options: BackendOptions | undefined): string | undefined {
  return backendOption(options, MOCK_DESCRIPTOR.id, 'file');
}

/** The mock backend's `maxDepth`: the deepest nesting its file may have (undefined: the default). */
export function mockFileReadOptions(options: BackendOptions | undefined): MockFileOptions {
  const maxDepth = options?.[MOCK_DESCRIPTOR.id]?.['maxDepth'];
  const xml = backendOption(options, MOCK_DESCRIPTOR.id, 'text');
  const source = backendOption(options, MOCK_DESCRIPTOR.id, 'source') ?? 'snapshot';
  return {
    ...(typeof maxDepth === 'number' ? { maxDepth } : {}),
    ...(xml !== undefined ? { text: { xml, source } } : {}),
  };
}

export interface MockFileOptions {
  /** Nodes nested deeper than this are an error (default DEFAULT_SNAPSHOT_MAX_DEPTH). */
  maxDepth?: number;
  /** The snapshot's text instead of a file (a snapshot opened in the UI), and the name its errors give it. */
  text?: { xml: string; source: string };
}
