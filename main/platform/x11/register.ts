import { registerPlatformFactory } from '../../core/registry.js';
import { x11PlatformFactory } from './factory.js';

registerPlatformFactory(x11PlatformFactory);
