import { AttributeNames } from '../../shared/model/attributes.js';
import type { WindowId, WindowManager } from '../core/platform.js';
import type { RuntimeNode } from '../runtime/node.js';
import { boundsOf } from './bounds.js';

/** The process id of a node: its own ProcessId attribute or the nearest ancestor's. */
export async function processIdOf(node: RuntimeNode): Promise<number | undefined> {
  for (let current: RuntimeNode | undefined = node; current; current = current.parent) {
    const entry = await current.attribute('control', AttributeNames.ProcessId).catch(() => undefined);
    if (entry && (entry.value.type === 'Integer' || entry.value.type === 'Number')) return entry.value.value;
  }
  return undefined;
}

/** The node's top-level window as the tree has it: the ancestor right below its application (or the desktop). */
export function topLevelOf(node: RuntimeNode): RuntimeNode {
  let current = node;
  while (current.parent?.parent && current.parent.namespace !== 'app') current = current.parent;
  return current;
}

/** The platform window of a node's top-level window, from its process id, name and bounds; undefined when none fits. */
export async function platformWindowOf(wm: WindowManager, node: RuntimeNode): Promise<WindowId | undefined> {
  const top = topLevelOf(node);
  const [processId, bounds] = await Promise.all([processIdOf(top), boundsOf(top)]);
  return wm.resolveWindow({
    ...(processId !== undefined ? { processId } : {}),
    name: top.name,
    ...(bounds ? { bounds } : {}),
  });
}
