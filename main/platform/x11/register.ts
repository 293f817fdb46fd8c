import { registerPlatformFactory } from '../../runtime/registry.js';
import { x11PlatformFactory } from './factory.js';

registerPlatformFactory(x11PlatformFactory);
