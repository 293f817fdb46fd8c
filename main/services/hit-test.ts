import type { Point } from '../../shared/model/values.js';
import { providerNodesAtPoint } from '../runtime/element-at-point.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import { boundsOf, contains } from './bounds.js';

/** Nodes a bounds walk may look at before it stops: a huge window must not stall a pick. */
const BOUNDS_WALK_BUDGET = 5000;

/**
 * The one hit test (CLI `pick --at` and picking in the UI both use it). The top-level windows under the point come
 * from the platform's stacking order, topmost first; each yields the deepest provider elements at the point inside
 * its process (AT-SPI GetAccessibleAtPoint). When no provider can hit-test there (the mock provider, a window whose
 * toolkit does not answer), the Bounds of the tree's top-level windows and their descendants decide.
 *
 * Each stack is deepest first: the element, then its ancestors. Without `all` there is at most one stack (the first
 * window that yields elements); with `all`, one per window under the point.
 */
export async function elementStacksAtPoint(
  runtime: Runtime,
  point: Point,
  options: { all?: boolean } = {},
): Promise<RuntimeNode[][]> {
  const hits = await providerNodesAtPoint(runtime.platform?.windowManager, runtime.providers, point, options);
  const stacks: RuntimeNode[][] = [];
  for (const hit of hits) {
    const stack = (await runtime.resolveProviderChain([...hit.nodes].reverse())).reverse();
    if (stack.length === 0) continue;
    stacks.push(stack);
    if (!options.all) break;
  }
  if (stacks.length > 0) return stacks;
  const byBounds = await stackByBounds(runtime, point);
  return byBounds.length > 0 ? [byBounds] : [];
}

/** The element at the point: the deepest of the first stack. */
export async function elementAtPoint(runtime: Runtime, point: Point): Promise<RuntimeNode | undefined> {
  const [stack] = await elementStacksAtPoint(runtime, point);
  return stack?.[0];
}

/**
 * The deepest element at the point whose Bounds hold it. A toolkit may answer a point with an element that is not
 * there (GTK 3 answers a notebook tab with the page's hidden scroll pane): the nearest ancestor that covers the point
 * stands for it then; the deepest when none says.
 */
export async function elementCoveringPoint(runtime: Runtime, point: Point): Promise<RuntimeNode | undefined> {
  const [stack] = await elementStacksAtPoint(runtime, point);
  if (!stack) return undefined;
  for (const node of stack) if (contains(await boundsOf(node).catch(() => undefined), point)) return node;
  return stack[0];
}

/** Deepest first, through the first top-level window whose Bounds contain the point (the last child containing it). */
async function stackByBounds(runtime: Runtime, point: Point): Promise<RuntimeNode[]> {
  let budget = BOUNDS_WALK_BUDGET;
  const top = await runtime.desktop.children();
  for (const window of top.filter((node) => node.namespace !== 'app')) {
    if (!contains(await boundsOf(window), point)) continue;
    const chain = [window];
    let current = window;
    for (;;) {
      const children = await current.children().catch((): readonly RuntimeNode[] => []);
      let next: RuntimeNode | undefined;
      for (const child of children) {
        if (--budget <= 0) break;
        if (contains(await boundsOf(child), point)) next = child;
      }
      if (!next) break;
      chain.push(next);
      current = next;
    }
    return chain.reverse();
  }
  return [];
}
