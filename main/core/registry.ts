import { InspectorError } from '../../shared/model/errors.js';
import type { BackendOptions } from './backend-options.js';
import type { FileTreeReader } from './file-tree.js';
import type { PlatformConfig, PlatformFactory } from './platform.js';
import type { ProviderFactory } from './provider.js';

/**
 * Where providers and platforms make themselves known. A backend's register module calls `registerProviderFactory`
 * or `registerPlatformFactory` when it is imported; the entry points import them (main/backends/, PlatynUI's link
 * crate). The runtime only asks this registry and never names a concrete backend.
 */

const providerFactories = new Map<string, ProviderFactory>();
const platformFactories = new Map<string, PlatformFactory>();
const fileTreeReaders = new Map<string, () => Promise<FileTreeReader>>();

export function registerProviderFactory(factory: ProviderFactory): void {
  providerFactories.set(factory.descriptor.id, factory);
}

export function registerPlatformFactory(factory: PlatformFactory): void {
  platformFactories.set(factory.id, factory);
}

/**
 * A backend that can answer from its file alone, without a runtime (the mock backend): `load` imports its reader
 * when a command first reads a file, so that registering costs nothing.
 */
export function registerFileTreeReader(backendId: string, load: () => Promise<FileTreeReader>): void {
  fileTreeReaders.set(backendId, load);
}

export function fileTreeReaderFor(backendId: string): Promise<FileTreeReader> | undefined {
  return fileTreeReaders.get(backendId)?.();
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

export interface BackendRequest {
  /** Provider ids as named; empty means the defaults for this OS. */
  providers?: readonly string[];
  /** Platform backend as named (`none`: providers only); undefined means the detected session. */
  platform?: string;
  backendOptions?: BackendOptions;
}

export interface BackendChoice {
  providers: string[];
  platform: string | undefined;
}

/**
 * What a runtime is made of, from what a front end named: a registered provider that was given options is named by
 * them (`{ mock: { file } }` names the mock provider); without a named platform, the platform that every named
 * provider pairs with (ProviderDescriptor.pairedPlatform: only mock providers means the mock platform).
 */
export function chooseBackends(request: BackendRequest): BackendChoice {
  const providers = [...(request.providers ?? [])];
  for (const [id, options] of Object.entries(request.backendOptions ?? {})) {
    const given = options && Object.values(options).some((value) => value !== undefined);
    if (given && providerFactories.has(id) && !providers.includes(id)) providers.push(id);
  }
  if (request.platform !== undefined) return { providers, platform: request.platform };
  const paired = new Set(providers.map((id) => providerFactories.get(id)?.descriptor.pairedPlatform));
  const [only] = paired;
  return { providers, platform: providers.length > 0 && paired.size === 1 ? only : undefined };
}
