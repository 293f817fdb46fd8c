import type { RuntimeNode } from '../runtime/node.js';

/**
 * The short ids agents hold between calls (`e1`, `e2` ...): one per node for as long as the node lives, never given
 * to another node. A node is its RuntimeNode: when an application removes an element and a new one appears with the
 * same runtime id, the runtime makes a new RuntimeNode and it gets a new short id.
 */
export class ShortIds {
  private next = 1;
  private readonly idOf = new WeakMap<RuntimeNode, string>();
  private readonly nodeOf = new Map<string, RuntimeNode>();

  /** Past this many ids the table drops the nodes that are gone (their ids stay retired: the counter only grows). */
  constructor(private readonly pruneAbove = 50_000) {}

  id(node: RuntimeNode): string {
    let id = this.idOf.get(node);
    if (id === undefined) {
      id = `e${this.next++}`;
      this.idOf.set(node, id);
      this.nodeOf.set(id, node);
      if (this.nodeOf.size > this.pruneAbove) this.prune();
    }
    return id;
  }

  /** The node an id was given to; undefined for an id never given (or one of a node gone and pruned). */
  node(id: string): RuntimeNode | undefined {
    return this.nodeOf.get(id);
  }

  get size(): number {
    return this.nodeOf.size;
  }

  private prune(): void {
    for (const [id, node] of this.nodeOf) if (node.isRemoved) this.nodeOf.delete(id);
  }
}
