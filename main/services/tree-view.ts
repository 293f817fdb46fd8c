import type { NodeSummary, Params, Result } from '../../shared/api/schema.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import { subtreeLists } from './subtree.js';

/**
 * What a host's view of the tree gives the services: nodes by RuntimeId (a node no longer known is a `stale-node`
 * error), each node's children as its owner holds them (windows under their application), and node summaries.
 */
export interface TreeView {
  readonly runtime: Runtime;
  node(runtimeId: string): RuntimeNode;
  structuralChildren(node: RuntimeNode, refresh?: boolean): Promise<readonly RuntimeNode[]>;
  summarize(node: RuntimeNode): NodeSummary;
}

/** The desktop node with what the platform says of the desktop (its children are listed first, as the UI shows them). */
export async function desktopOverview(view: TreeView): Promise<Result<'desktop'>> {
  const { runtime } = view;
  await view.structuralChildren(runtime.desktop).catch(() => undefined);
  const info = runtime.desktopInfo;
  return {
    node: view.summarize(runtime.desktop),
    technology: info.technology,
    osVersion: info.osVersion,
    bounds: info.bounds,
    monitors: info.monitors.map((monitor) => ({ ...monitor })),
  };
}

/** One page of a node's children (the total counts all of them). */
export async function childPage(
  view: TreeView,
  { runtimeId, offset, limit, refresh }: Params<'children'>,
): Promise<Result<'children'>> {
  const node = view.node(runtimeId);
  const children = await view.structuralChildren(node, refresh);
  return {
    runtimeId,
    revision: node.revision,
    total: children.length,
    offset,
    nodes: children.slice(offset, offset + limit).map((child) => view.summarize(child)),
  };
}

/** The child lists below a node (expand all), within `maxNodes`. */
export async function subtreePage(
  view: TreeView,
  { runtimeId, maxNodes }: Params<'subtree'>,
): Promise<Result<'subtree'>> {
  const found = await subtreeLists(view.node(runtimeId), (node) => view.structuralChildren(node), maxNodes);
  return {
    runtimeId,
    nodes: found.nodes,
    truncated: found.truncated,
    lists: found.lists.map(({ parent, children }) => ({
      parentRuntimeId: parent.runtimeId,
      nodes: children.map((child) => view.summarize(child)),
    })),
  };
}

/** The nodes of the whole tree below the desktop (what the answer to `snapshot.open` reports). */
export async function countTreeNodes(view: TreeView): Promise<number> {
  let count = 0;
  const pending = [view.runtime.desktop];
  while (pending.length) {
    const node = pending.pop()!;
    count++;
    pending.push(...(await view.structuralChildren(node)));
  }
  return count - 1;
}
