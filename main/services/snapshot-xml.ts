import type { Params, Result } from '../../shared/api/schema.js';
import { writeSnapshotXml } from '../../shared/snapshot/xml-writer.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import { collectSubtree, type AttributeSelection, type CollectedNode } from './snapshot.js';
import type { TreeView } from './tree-view.js';

// Apart from snapshot.ts, whose readers (CLI query, pick) must not load the XML writer.

function countNodes(node: CollectedNode): number {
  return 1 + node.children.reduce((sum, child) => sum + countNodes(child), 0);
}

/** A subtree (the desktop by default) in the snapshot XML format, and how many nodes it holds. */
export async function snapshotXml(
  runtime: Runtime,
  root: RuntimeNode,
  options: { attrs: AttributeSelection; maxDepth: number | undefined },
): Promise<{ xml: string; nodes: number }> {
  const tree = await collectSubtree(runtime, root, { ...options, includeRuntimeId: false });
  return { xml: writeSnapshotXml([tree]), nodes: countNodes(tree) };
}

/** The protocol's `snapshot`: the node `runtimeId` names (the desktop without one) and its subtree. */
export function snapshotRequest(
  view: TreeView,
  { runtimeId, maxDepth, attrs }: Params<'snapshot'>,
): Promise<Result<'snapshot'>> {
  return snapshotXml(view.runtime, runtimeId ? view.node(runtimeId) : view.runtime.desktop, { attrs, maxDepth });
}
