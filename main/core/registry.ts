import { InspectorError } from '../../shared/model/errors.js';
import type { PlatformConfig, PlatformFactory } from './platform.js';
import type { ProviderFactory } from './provider.js';

/**
 * Where providers and platforms make themselves known. A provider module calls `registerProviderFactory` when it is
 * imported (see main/providers/index.ts, the one place that links them in); the runtime only asks this registry.
 */

const providerFactories = new Map<string, ProviderFactory>();
const platformFactories = new Map<string, PlatformFactory>();

export function registerProviderFactory(factory: ProviderFactory): void {
  providerFactories.set(factory.descriptor.id, factory);
}

export function registerPlatformFactory(factory: PlatformFactory): void {
  platformFactories.set(factory.id, factory);
}

export function listProviderFactories(): ProviderFactory[] {
  return [...providerFactories.values()];
}

export function listPlatformFactories(): PlatformFactory[] {
  return [...platformFactories.values()];
}

/** Factories for the named ids, or the defaults for this OS (never an opt-in provider) when none are named. */
export function selectProviderFactories(ids: readonly string[], platform: NodeJS.Platform): ProviderFactory[] {
  if (ids.length === 0) {
    return listProviderFactories().filter((f) => !f.descriptor.optIn && f.descriptor.defaultOn.includes(platform));
  }
  return ids.map((id) => {
    const factory = providerFactories.get(id);
    if (!factory) {
      const known = listProviderFactories()
        .map((f) => f.descriptor.id)
        .join(', ');
      throw new InspectorError('usage', `unknown provider "${id}"; known providers: ${known || 'none'}`);
    }
    return factory;
  });
}

/** The named backend (which must serve), or the first non-opt-in backend that serves the detected session. */
export function selectPlatformFactory(config: PlatformConfig): PlatformFactory | undefined {
  if (config.backend) {
    const factory = platformFactories.get(config.backend);
    if (!factory) throw new InspectorError('usage', `unknown platform backend "${config.backend}"`);
    if (!factory.canServe(config)) {
      throw new InspectorError(
        'provider-unavailable',
        `platform backend "${config.backend}" cannot serve this session`,
      );
    }
    return factory;
  }
  return listPlatformFactories().find((factory) => !factory.optIn && factory.canServe(config));
}
