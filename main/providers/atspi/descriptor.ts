import type { ProviderDescriptor } from '../../core/provider.js';

export const ATSPI_DESCRIPTOR: ProviderDescriptor = {
  id: 'atspi',
  displayName: 'AT-SPI2 (Linux accessibility bus)',
  technology: 'AT-SPI2',
  kind: 'native',
  eventCapabilities: 'StructureWithProperties',
  optIn: false,
  defaultOn: ['linux'],
};
