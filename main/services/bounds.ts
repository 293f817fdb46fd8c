import { AttributeNames } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
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

/** Where a pointer action on a node lands: its ActivationPoint, else the centre of its Bounds. */
export async function actionPointOf(node: RuntimeNode): Promise<Point> {
  const activation = await node.attribute('control', AttributeNames.ActivationPoint).catch(() => undefined);
  if (activation?.value.type === 'Point') return activation.value.value;
  const bounds = await boundsOf(node);
  if (!bounds || bounds.width <= 0 || bounds.height <= 0) {
    throw new InspectorError('unsupported', `${node.describe()} has no bounds on screen to act on`, {
      runtimeId: node.runtimeId,
    });
  }
  return { x: bounds.x + bounds.width / 2, y: bounds.y + bounds.height / 2 };
}

/** The on-screen rectangles of these nodes, leaving out nodes without bounds or with an empty one. */
export async function visibleBounds(nodes: readonly RuntimeNode[]): Promise<Rect[]> {
  const found = await Promise.all(nodes.map((node) => boundsOf(node)));
  return found.filter((rect): rect is Rect => rect !== undefined && rect.width > 0 && rect.height > 0);
}
