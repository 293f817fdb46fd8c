import { InspectorError } from '../../shared/model/errors.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { XPathItem } from './xpath-service.js';

/**
 * An evaluation's results, held as the worker sent them (protocol.ts's WorkerResults): nodes as handles in a typed
 * array, the other items (attributes, values) beside them. An item object is made only for the items read, so an
 * answer of 100,000 nodes whose first page is shown costs one page of objects, not 100,000.
 */
export class XPathResults implements Iterable<XPathItem> {
  /**
   * @param entries one per result: a node's handle (>= 0, looked up with `nodeOf`) or `-1 - i` for `others[i]`
   */
  constructor(
    private readonly entries: Int32Array,
    private readonly others: readonly XPathItem[],
    private readonly nodeOf: (handle: number) => RuntimeNode | undefined,
  ) {}

  get length(): number {
    return this.entries.length;
  }

  /** The result at `index` (0 <= index < length). */
  at(index: number): XPathItem {
    const entry = this.entries[index];
    if (entry === undefined) throw new RangeError(`no result ${index} of ${this.length}`);
    if (entry < 0) return this.others[-1 - entry]!;
    const node = this.nodeOf(entry);
    if (!node) throw new InspectorError('internal', `the XPath worker answered an unknown node handle ${entry}`);
    return { type: 'node', node };
  }

  /** The results from `start` up to (not including) `end`, both clamped to the results. */
  slice(start = 0, end = this.length): XPathItem[] {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    const items: XPathItem[] = [];
    for (let i = from; i < to; i++) items.push(this.at(i));
    return items;
  }

  *[Symbol.iterator](): Iterator<XPathItem> {
    for (let i = 0; i < this.length; i++) yield this.at(i);
  }
}
