import { namespaceFromUri } from '../../../shared/model/namespaces.js';
import type { ItemSink, XPathValue } from '../../../shared/xpath/evaluate-core.js';
import type { WorkerOtherItem, WorkerResults } from '../protocol.js';
import type { MirrorNode } from './mirror-tree.js';

const INITIAL_CAPACITY = 1024;

/**
 * Writes an evaluation's results as protocol.ts's WorkerResults while the engine produces them: a node is its handle
 * in a growing typed array, no object made. Results past `cap` are left out and mark the results truncated.
 */
export class ResultWriter implements ItemSink<MirrorNode> {
  private items = new Int32Array(INITIAL_CAPACITY);
  private count = 0;
  private others: WorkerOtherItem[] = [];
  truncated = false;

  constructor(private readonly cap = Infinity) {}

  node(node: MirrorNode): void {
    if (this.room()) this.append(node.h);
  }

  attribute(owner: MirrorNode, namespaceUri: string | null, localName: string, value: string): void {
    const ns = namespaceFromUri(namespaceUri) ?? 'control';
    this.other({ kind: 'attribute', h: owner.h, ns, name: localName, text: value });
  }

  value(value: XPathValue, integer?: boolean): void {
    this.other(integer === undefined ? { kind: 'value', value } : { kind: 'value', value, integer });
  }

  reset(): void {
    this.count = 0;
    this.others = [];
    this.truncated = false;
  }

  /** The results so far; `items` is a view of the writer's buffer (transfer its buffer, then drop the writer). */
  finish(): WorkerResults {
    return { items: this.items.subarray(0, this.count), others: this.others };
  }

  private other(item: WorkerOtherItem): void {
    if (!this.room()) return;
    this.others.push(item);
    this.append(-this.others.length);
  }

  private room(): boolean {
    if (this.count < this.cap) return true;
    this.truncated = true;
    return false;
  }

  private append(entry: number): void {
    if (this.count === this.items.length) {
      const grown = new Int32Array(this.items.length * 2);
      grown.set(this.items);
      this.items = grown;
    }
    this.items[this.count++] = entry;
  }
}
