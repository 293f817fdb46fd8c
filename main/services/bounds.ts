import { AttributeNames } from '../../shared/model/attributes.js';
import type { Point, Rect } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';

/** A node's on-screen rectangle; undefined when it has none or the application does not answer. */
export async function boundsOf(node: RuntimeNode): Promise<Rect | undefined> {
  const entry = await node.attribute('control', AttributeNames.Bounds).catch(() => undefined);
  return entry?.value.type === 'Rect' ? entry.value.value : undefined;
}

export function contains(rect: Rect | undefined, point: Point): boolean {
  return (
    !!rect && point.x >= rect.x && point.y >= rect.y && point.x < rect.x + rect.width && point.y < rect.y + rect.height
  );
}
