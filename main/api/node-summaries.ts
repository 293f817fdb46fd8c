import type { NodeSummary } from '../../shared/api/schema.js';
import type { RuntimeEvent } from '../runtime/events.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';

/**
 * Node summaries as the API sends them, with the child counts the clients have seen (kept until a change to the
 * node's children makes them unknown again).
 */
export class NodeSummaries {
  private readonly childCounts = new Map<string, number>();

  constructor(private readonly runtime: Runtime) {}

  async structuralChildren(node: RuntimeNode, refresh = false): Promise<readonly RuntimeNode[]> {
    if (refresh) node.invalidate();
    const children = await this.runtime.structuralChildren(node);
    // Summaries carry the developer id: make it definitive (providers may defer ids until asked).
    await Promise.all(children.map((child) => child.loadId().catch(() => undefined)));
    this.childCounts.set(node.runtimeId, children.length);
    return children;
  }

  /** Forgets the child counts a tree change makes unknown. */
  changed(event: RuntimeEvent): void {
    if (event.kind === 'TreeInvalidated') this.childCounts.clear();
    else if (event.kind !== 'NodeUpdated') {
      this.childCounts.delete(event.parentRuntimeId ?? this.runtime.desktop.runtimeId);
      if ('runtimeId' in event) this.childCounts.delete(event.runtimeId);
    }
  }

  summarize(node: RuntimeNode): NodeSummary {
    const count = this.childCounts.get(node.runtimeId);
    const cached = node.cachedChildren;
    const known = count ?? (cached && node !== this.runtime.desktop ? cached.length : undefined);
    return {
      runtimeId: node.runtimeId,
      namespace: node.namespace,
      role: node.role,
      name: node.name,
      ...(node.id ? { id: node.id } : {}),
      revision: node.revision,
      ...(known !== undefined ? { childCount: known } : {}),
      hasChildren: known === undefined ? true : known > 0,
      stale: node.isRemoved,
      technology: node.technology,
    };
  }
}
