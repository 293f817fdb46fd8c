import type { RuntimeNode } from '../runtime/node.js';

/** One node's whole list of structural children. */
export interface ChildList {
  parent: RuntimeNode;
  children: readonly RuntimeNode[];
}

export interface SubtreeLists {
  /** Breadth first; only nodes that have children get a list. */
  lists: ChildList[];
  /** Nodes in the lists. */
  nodes: number;
  /** Lists were left out: they would have passed `maxNodes`. */
  truncated: boolean;
}

/**
 * The child lists below `root`, breadth first, level by level (the children of a level are asked for together, so
 * a provider's bulk load below a window serves the whole level), while the nodes listed stay within `maxNodes`.
 * A list is given whole or not at all; a node whose children cannot be read gets no list.
 */
export async function subtreeLists(
  root: RuntimeNode,
  childrenOf: (node: RuntimeNode) => Promise<readonly RuntimeNode[]>,
  maxNodes: number,
): Promise<SubtreeLists> {
  const lists: ChildList[] = [];
  let nodes = 0;
  let level: readonly RuntimeNode[] = [root];
  while (level.length > 0) {
    const read = await Promise.all(level.map((parent) => childrenOf(parent).catch((): readonly RuntimeNode[] => [])));
    const next: RuntimeNode[] = [];
    for (let i = 0; i < level.length; i++) {
      const children = read[i]!;
      if (children.length === 0) continue;
      if (nodes + children.length > maxNodes) return { lists, nodes, truncated: true };
      nodes += children.length;
      lists.push({ parent: level[i]!, children });
      for (const child of children) next.push(child);
    }
    level = next;
  }
  return { lists, nodes, truncated: false };
}
