import type { AttributeEntry } from '../../shared/model/attributes.js';
import { AttributeNames } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { UiValue } from '../../shared/model/values.js';
import { uiArray, uiBool, uiNumber, uiObject, uiRect, uiString } from '../../shared/model/values.js';
import type { DesktopInfo } from '../core/platform.js';
import type { ProviderAttribute, ProviderNode, UiTreeProvider } from '../core/provider.js';

import { DESKTOP_RUNTIME_ID } from '../core/provider.js';

export { DESKTOP_RUNTIME_ID };

/** Used when the runtime has no platform (PlatynUI §5.3): 1920x1080, no monitors, technology "Fallback". */
export const FALLBACK_DESKTOP: DesktopInfo = {
  technology: 'Fallback',
  osVersion: 'unknown',
  name: 'Desktop',
  bounds: { x: 0, y: 0, width: 1920, height: 1080 },
  monitors: [],
};

export function monitorsValue(info: DesktopInfo): UiValue {
  return uiArray(
    info.monitors.map((monitor) =>
      uiObject({
        Id: uiString(monitor.id),
        Name: uiString(monitor.name),
        Bounds: uiRect(monitor.bounds),
        IsPrimary: uiBool(monitor.isPrimary),
        Scale: uiNumber(monitor.scale),
      }),
    ),
  );
}

function staticAttribute(entry: AttributeEntry): ProviderAttribute {
  return { namespace: entry.namespace, name: entry.name, read: () => Promise.resolve(entry.value) };
}

/**
 * The desktop: the root every query starts from. Its children are the providers' applications first, then every
 * top-level window (the flat view); an application's children are the same windows (the grouped view).
 */
export class DesktopSource implements ProviderNode {
  readonly runtimeId = DESKTOP_RUNTIME_ID;
  readonly namespace = 'control' as const;
  readonly role = 'Desktop';
  readonly id = undefined;
  readonly isSecure = false;
  /** Windows that appear under an application, by runtime id: the grouped view owns them structurally. */
  readonly applicationOwned = new Set<string>();
  /** The technology of the provider that listed each top-level node. */
  private readonly technologies = new Map<string, string>();

  constructor(
    private readonly info: DesktopInfo,
    private readonly providers: readonly UiTreeProvider[],
  ) {}

  get name(): string {
    return this.info.name;
  }

  async children(): Promise<readonly ProviderNode[]> {
    const perProvider = await Promise.all(this.providers.map((provider) => provider.roots()));
    const roots = perProvider.flat();
    const applications = roots.filter((node) => node.namespace === 'app');
    const others = roots.filter((node) => node.namespace !== 'app');
    const windows = await Promise.all(
      applications.map((application) => application.children().catch((): readonly ProviderNode[] => [])),
    );
    this.applicationOwned.clear();
    for (const window of windows.flat()) this.applicationOwned.add(window.runtimeId);
    perProvider.forEach((nodes, index) => {
      const technology = this.providers[index]!.descriptor.technology;
      for (const node of nodes) this.technologies.set(node.runtimeId, technology);
    });
    applications.forEach((application, index) => {
      const technology = this.technologies.get(application.runtimeId);
      if (technology) for (const window of windows[index]!) this.technologies.set(window.runtimeId, technology);
    });
    return [...applications, ...windows.flat(), ...others];
  }

  technologyOf(runtimeId: string): string | undefined {
    return this.technologies.get(runtimeId);
  }

  desktopAttributes(): AttributeEntry[] {
    const control = (name: string, value: UiValue): AttributeEntry => ({ namespace: 'control', name, value });
    return [
      control(AttributeNames.Name, uiString(this.info.name)),
      control(AttributeNames.Bounds, uiRect(this.info.bounds)),
      control(AttributeNames.OsVersion, uiString(this.info.osVersion)),
      control(AttributeNames.Monitors, monitorsValue(this.info)),
      control(AttributeNames.Technology, uiString(this.info.technology)),
      control(AttributeNames.IsVisible, uiBool(true)),
      control(AttributeNames.IsEnabled, uiBool(true)),
    ];
  }

  attributes(): Promise<readonly ProviderAttribute[]> {
    return Promise.resolve(this.desktopAttributes().map(staticAttribute));
  }

  readAllAttributes(): Promise<readonly AttributeEntry[]> {
    return Promise.resolve(this.desktopAttributes());
  }

  supportedPatterns(): Promise<readonly string[]> {
    return Promise.resolve(['Element', 'Desktop']);
  }

  performAction(): Promise<void> {
    return Promise.reject(new InspectorError('unsupported', 'the desktop has no actions'));
  }

  isValid(): Promise<boolean> {
    return Promise.resolve(true);
  }

  invalidate(): void {
    this.applicationOwned.clear();
  }
}
