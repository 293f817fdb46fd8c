/**
 * A plain in-memory XdmTree (tests, benchmarks, the differential test). It counts tree accesses, and can be told
 * to cancel after a number of checkCancelled() calls.
 */
import type { XdmAttribute, XdmTree } from './tree.js';

export interface MemNode {
  readonly id: number;
  readonly namespaceUri: string;
  readonly localName: string;
  readonly prefix: string;
  readonly attrs: XdmAttribute[];
  /** For an application: the window nodes (alias edges; their parent stays the document). */
  readonly children: MemNode[];
  parent: MemNode | null;
  readonly document: boolean;
}

export const PREFIX_OF_URI: Readonly<Record<string, string>> = {
  'urn:platynui:control': '',
  'urn:platynui:item': 'item',
  'urn:platynui:app': 'app',
  'urn:platynui:native': 'native',
};

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export class MemoryTree implements XdmTree<MemNode> {
  /** Calls of children(), attributes(), attribute() and parent(). */
  accesses = 0;
  /** Nodes whose children were listed. */
  childLists = 0;
  checks = 0;
  /** checkCancelled() throws CancelledError once it has been called this many times. */
  cancelAfter = Infinity;
  private nextId = 0;
  readonly root: MemNode;

  constructor() {
    this.root = {
      id: this.nextId++,
      namespaceUri: '',
      localName: '',
      prefix: '',
      attrs: [],
      children: [],
      parent: null,
      document: true,
    };
  }

  /** Creates an element under `parent` (appended to its children). */
  add(parent: MemNode, namespaceUri: string, localName: string, attrs: Record<string, string> = {}): MemNode {
    const n = this.create(namespaceUri, localName, attrs);
    n.parent = parent;
    parent.children.push(n);
    return n;
  }

  create(namespaceUri: string, localName: string, attrs: Record<string, string> = {}): MemNode {
    const list: XdmAttribute[] = [];
    for (const [key, value] of Object.entries(attrs)) {
      const colon = key.indexOf(':');
      const ns = colon < 0 ? null : `urn:platynui:${key.slice(0, colon)}`;
      list.push({ namespaceUri: ns, localName: colon < 0 ? key : key.slice(colon + 1), value });
    }
    return {
      id: this.nextId++,
      namespaceUri,
      localName,
      prefix: PREFIX_OF_URI[namespaceUri] ?? '',
      attrs: list,
      children: [],
      parent: null,
      document: false,
    };
  }

  /** Adds an alias edge: `child` (whose parent stays where it is) is also listed under `app`. */
  alias(app: MemNode, child: MemNode): void {
    app.children.push(child);
  }

  resetCounters(): void {
    this.accesses = 0;
    this.childLists = 0;
    this.checks = 0;
  }

  isDocument(node: MemNode): boolean {
    return node.document;
  }
  namespaceUri(node: MemNode): string {
    return node.namespaceUri;
  }
  localName(node: MemNode): string {
    return node.localName;
  }
  prefix(node: MemNode): string {
    return node.prefix;
  }
  parent(node: MemNode): MemNode | null {
    this.accesses++;
    return node.parent;
  }
  children(node: MemNode): readonly MemNode[] {
    this.accesses++;
    this.childLists++;
    return node.children;
  }
  attributes(node: MemNode): readonly XdmAttribute[] {
    this.accesses++;
    return node.attrs;
  }
  attribute(node: MemNode, namespaceUri: string | null, localName: string): string | undefined {
    this.accesses++;
    for (const a of node.attrs) if (a.localName === localName && a.namespaceUri === namespaceUri) return a.value;
    return undefined;
  }
  checkCancelled(): void {
    if (++this.checks >= this.cancelAfter) throw new CancelledError();
  }
}
