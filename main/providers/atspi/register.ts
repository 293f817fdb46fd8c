import { registerProviderFactory } from '../../core/registry.js';
import { ATSPI_DESCRIPTOR, AtspiProvider } from './provider.js';

// The AT-SPI2 provider: the default on Linux, created whenever no provider is named.
registerProviderFactory({
  descriptor: ATSPI_DESCRIPTOR,
  create: (context) => AtspiProvider.fromContext(context),
});
