import type { NodeSummary } from '../../shared/api/schema.js';
import type { RuntimeEvent } from '../runtime/events.js';
import type { AttributeEntry } from '../../shared/model/attributes.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';

/**
 * Node summaries as the API sends them, with the child counts the clients have seen (kept until a change to the
 * node's children makes them unknown again).
 */
export class NodeSummaries {
  private readonly childCounts = new Map<string, number>();
  private readonly processIds = new Map<string, number | undefined>();

  constructor(private readonly runtime: Runtime) {}

  async structuralChildren(node: RuntimeNode, refresh = false): Promise<readonly RuntimeNode[]> {
    if (refresh) node.invalidate();
    const children = await this.runtime.structuralChildren(node);
    // Summaries carry the developer id: make it definitive (providers may defer ids until asked). An application's
    // process id comes along (held by most providers; read once where it is not).
    await Promise.all(
      children.map(async (child) => {
        await child.loadId().catch(() => undefined);
        if (child.namespace === 'app' && !this.processIds.has(child.runtimeId)) {
          this.processIds.set(child.runtimeId, heldProcessId(child) ?? (await readProcessId(child)));
        }
      }),
    );
    this.childCounts.set(node.runtimeId, children.length);
    return children;
  }

  /** Forgets the child counts a tree change makes unknown. */
  changed(event: RuntimeEvent): void {
    if (event.kind === 'TreeInvalidated') {
      this.childCounts.clear();
      this.processIds.clear();
    } else if (event.kind !== 'NodeUpdated') {
      this.childCounts.delete(event.parentRuntimeId ?? this.runtime.desktop.runtimeId);
      if ('runtimeId' in event) this.childCounts.delete(event.runtimeId);
    }
  }

  summarize(node: RuntimeNode): NodeSummary {
    const count = this.childCounts.get(node.runtimeId);
    const cached = node.cachedChildren;
    const known = count ?? (cached && node !== this.runtime.desktop ? cached.length : undefined);
    const processId =
      node.namespace === 'app' ? (this.processIds.get(node.runtimeId) ?? heldProcessId(node)) : undefined;
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
      ...(processId !== undefined ? { processId } : {}),
    };
  }
}

const processIdOf = (entries: readonly AttributeEntry[] | undefined): number | undefined => {
  const entry = entries?.find((attribute) => attribute.namespace === 'control');
  return entry?.value.type === 'Integer' ? entry.value.value : undefined;
};

const heldProcessId = (node: RuntimeNode) => processIdOf(node.peekAttributesNamed(['ProcessId']));

const readProcessId = (node: RuntimeNode) => node.attributesNamed('ProcessId').then(processIdOf, () => undefined);
