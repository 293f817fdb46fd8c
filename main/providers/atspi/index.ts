// Public surface of the AT-SPI2 provider for the CLI and the runtime.
export { AtspiProvider, ATSPI_DESCRIPTOR } from './provider.js';
export type { AtspiProviderOptions } from './provider.js';
export {
  enableAccessibility,
  getAccessibilityStatus,
  resolveAccessibilityBus,
  NOT_REGISTERED_HINT,
} from './accessibility-status.js';
export type { AccessibilityStatus } from './accessibility-status.js';
export { mapRole, mapRoleName } from './roles.js';
