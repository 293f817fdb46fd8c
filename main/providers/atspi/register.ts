import { registerProviderFactory } from '../../core/registry.js';
import { ATSPI_DESCRIPTOR } from './descriptor.js';

// The AT-SPI2 provider: the default on Linux, created whenever no provider is named. Registering loads only the
// descriptor; the provider and its D-Bus client are imported when a runtime creates it (a CLI command that never reads the
// tree does not pay for them).
registerProviderFactory({
  descriptor: ATSPI_DESCRIPTOR,
  create: async (context) => (await import('./provider.js')).AtspiProvider.fromContext(context),
  accessibilitySwitch: {
    state: async () => (await import('./accessibility-status.js')).getAccessibilityStatus(),
    enable: async () => (await import('./accessibility-status.js')).enableAccessibility(),
  },
});
