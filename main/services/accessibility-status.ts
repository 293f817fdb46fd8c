import type { AccessibilityStatusInfo, InspectorEvent, ProviderStatusInfo } from '../../shared/api/schema.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { AccessibilitySwitch } from '../core/provider.js';
import { listProviderFactories, selectProviderFactories } from '../core/registry.js';

/** The accessibility switch of the first of these providers that has one (AT-SPI's, on Linux). */
export function accessibilitySwitchOf(providerIds: readonly string[]): AccessibilitySwitch | undefined {
  const ids = new Set(providerIds);
  return listProviderFactories().find((factory) => ids.has(factory.descriptor.id) && factory.accessibilitySwitch)
    ?.accessibilitySwitch;
}

/** The switch of this OS's default providers: what `info` reports before any runtime exists. */
export function defaultAccessibilitySwitch(
  platform: NodeJS.Platform = process.platform,
): AccessibilitySwitch | undefined {
  return accessibilitySwitchOf(selectProviderFactories([], platform).map((factory) => factory.descriptor.id));
}

/** The switch's state as the API reports it; with `enable`, switches it on first. */
export async function accessibilityStatus(
  accessibilitySwitch: AccessibilitySwitch | undefined,
  enable: boolean,
): Promise<AccessibilityStatusInfo> {
  if (!accessibilitySwitch) {
    if (enable) {
      throw new InspectorError(
        'unsupported',
        'switching accessibility on is an AT-SPI (Linux) feature; this session does not use the AT-SPI provider',
      );
    }
    return { enabled: true, canEnable: false, message: 'this session has no accessibility switch' };
  }
  const state = enable ? await accessibilitySwitch.enable() : await accessibilitySwitch.state();
  return {
    enabled: state.enabled,
    canEnable: true,
    ...(state.busAddress ? { busAddress: state.busAddress } : {}),
    message: state.message,
  };
}

/** A view with an accessibility switch, whose connections are told when the providers' status changes. */
export interface AccessibilityView {
  accessibility(enable: boolean): Promise<AccessibilityStatusInfo>;
  providerStatus(): ProviderStatusInfo[];
  emit(event: InspectorEvent): void;
}

/** Switches accessibility on (`accessibility.enable`) and tells every connection the providers' status after it. */
export async function enableAccessibility(view: AccessibilityView): Promise<AccessibilityStatusInfo> {
  const status = await view.accessibility(true);
  view.emit({ type: 'provider.status', providers: view.providerStatus() });
  return status;
}
