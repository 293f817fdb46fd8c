import type { RuntimeNode } from './node.js';

export interface HeldIdsOptions {
  /** At most this many nodes are visited (default: no limit). */
  readonly budget?: number;
  /** Nodes whose held children are not visited (their own id is still made definitive). */
  readonly stopBelow?: (node: RuntimeNode) => boolean;
}

/**
 * Makes the ids of these nodes and of the nodes the runtime holds below them definitive (providers may defer ids
 * until asked: ProviderNode.loadId). A node's loadId() makes the ids of the nodes held below it definitive as well,
 * so those are marked afterwards instead of being asked one promise each: a bulk-loaded application costs one
 * loadId() however large it is.
 */
export async function loadHeldIds(nodes: readonly RuntimeNode[], options: HeldIdsOptions = {}): Promise<void> {
  const pending: Array<Promise<unknown>> = [];
  const covered: RuntimeNode[] = [];
  let left = options.budget ?? Number.POSITIVE_INFINITY;
  const visit = (node: RuntimeNode, cover: boolean) => {
    left--;
    if (cover) covered.push(node);
    else if (!node.idDefinitive) pending.push(node.loadId());
    if (options.stopBelow?.(node)) return;
    const held = node.peekChildren();
    const below = cover || node.defersId;
    if (held && left >= held.length) for (const child of held) visit(child, below);
  };
  for (const node of nodes) visit(node, false);
  await Promise.all(pending);
  for (const node of covered) node.markIdDefinitive();
}
