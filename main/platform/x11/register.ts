import { registerPlatformFactory } from '../../core/registry.js';
import { canServeX11 } from './display-server.js';

// Registering loads only the session detection; koffi and the X libraries are loaded when a runtime creates it.
registerPlatformFactory({
  id: 'x11',
  optIn: false,
  canServe: canServeX11,
  create: async (config) => (await import('./factory.js')).x11PlatformFactory.create(config),
});
