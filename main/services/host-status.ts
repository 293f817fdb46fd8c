import { API_VERSION, type AccessibilityStatusInfo, type Result } from '../../shared/api/schema.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { Runtime } from '../runtime/runtime.js';
import { capabilitiesOf, type HostFeatures } from './capabilities.js';
import { packageVersion } from './package-info.js';
import { providerStatus } from './provider-status.js';

/** A host's view as `status` reports it: its runtime, the host's features, the accessibility switch, a snapshot. */
export interface StatusView extends HostFeatures {
  readonly runtime: Runtime;
  /** The snapshot the view shows (read-only, offline); undefined for the live desktop. */
  readonly snapshotName: string | undefined;
  accessibility(enable: boolean): Promise<AccessibilityStatusInfo>;
}

/** The `status` answer: versions, platform and its unavailable devices, providers, accessibility, capabilities. */
export async function hostStatus(view: StatusView): Promise<Result<'status'>> {
  const { runtime } = view;
  return {
    apiVersion: API_VERSION,
    version: packageVersion(),
    platform: runtime.platform?.id ?? 'none',
    unavailable: [...(runtime.platform?.unavailable ?? [])].map((entry) => ({ ...entry })),
    providers: providerStatus(runtime),
    nodesFetched: runtime.nodesFetched,
    accessibility: await view.accessibility(false),
    capabilities: capabilitiesOf(runtime, view),
    ...(view.snapshotName ? { snapshot: { name: view.snapshotName } } : {}),
  };
}

/** Ends the host and everything it started (`host.stop`); unsupported where a page may not stop its host. */
export function stopHost(host: { readonly hostStop: (() => void) | undefined }): Result<'host.stop'> {
  if (!host.hostStop) throw new InspectorError('unsupported', 'this host cannot be stopped from its page');
  host.hostStop();
  return { stopping: true };
}
