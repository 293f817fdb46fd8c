import type { Point } from '../../shared/model/values.js';
import type { WindowInfo, WindowManager } from '../core/platform.js';
import type { ProviderNode, UiTreeProvider } from '../core/provider.js';

/**
 * Element at a point, at the provider level: the top-level windows under the point from the platform's stacking
 * order (topmost first), then for each the deepest provider elements containing the point inside that window's
 * process. With `all`, every window under the point contributes its stack (the UI cycles through them); without, the
 * first window that yields elements ends the search. The runtime wraps the provider nodes into its own nodes.
 */
export interface PointHit {
  /** The top-level window the elements live in; undefined when there is no window manager to ask. */
  window: WindowInfo | undefined;
  providerId: string;
  /** Deepest first: the element itself, then its ancestors up to the window. */
  nodes: readonly ProviderNode[];
}

export async function providerNodesAtPoint(
  windowManager: WindowManager | undefined,
  providers: readonly UiTreeProvider[],
  point: Point,
  options: { all?: boolean } = {},
): Promise<PointHit[]> {
  const pickers = providers.filter((provider) => provider.nodesAtPoint);
  const hits: PointHit[] = [];
  const windows: Array<WindowInfo | undefined> = windowManager
    ? await windowManager.windowsAtPoint(point)
    : [undefined];
  for (const window of windows) {
    for (const provider of pickers) {
      const nodes = await provider.nodesAtPoint!(point, window?.processId);
      if (nodes.length === 0) continue;
      hits.push({ window, providerId: provider.descriptor.id, nodes });
      if (!options.all) return hits;
      break;
    }
  }
  return hits;
}
