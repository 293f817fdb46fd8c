/**
 * A plain in-memory XdmTree (tests, benchmarks, the differential test). It counts tree accesses, and can be told
 * to cancel after a number of checkCancelled() calls. With `index` on it answers elementsNamed() from a NameIndex,
 * built on first use and dropped by every change made through its methods (add, alias, remove, invalidate).
 */
import { NameIndex } from './name-index.js';
import type { ElementList, XdmAttribute, XdmTree } from './tree.js';

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

/** `Name` (no namespace) or `native:Role` (urn:platynui:native). */
function attributeKey(key: string): { namespaceUri: string | null; localName: string } {
  const colon = key.indexOf(':');
  if (colon < 0) return { namespaceUri: null, localName: key };
  return { namespaceUri: `urn:platynui:${key.slice(0, colon)}`, localName: key.slice(colon + 1) };
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export class MemoryTree implements XdmTree<MemNode> {
  /** Calls of children(), attributes(), attribute() and parent(). */
  accesses = 0;
  /** XdmTree.applicationsOnlyAtTop: set by a test whose applications are all children of the document. */
  applicationsOnlyAtTop = false;
  /** Nodes whose children were listed. */
  childLists = 0;
  checks = 0;
  /** checkCancelled() throws CancelledError once it has been called this many times. */
  cancelAfter = Infinity;
  /** Answer elementsNamed() (else the method answers undefined, as a tree without an index, and engines walk). */
  index: boolean;
  /** Times the name index was built; elementsNamed() answers given (by element name, and by element and Name). */
  indexBuilds = 0;
  indexLookups = 0;
  nameLookups = 0;
  /** Name attributes the index read (scanning a group for one name). */
  nameReads = 0;
  private names: NameIndex<MemNode> | undefined;
  private nextId = 0;
  readonly root: MemNode;

  constructor(options: { index?: boolean } = {}) {
    this.index = options.index ?? false;
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
  /** Creates an element under `parent`, appended to its children or inserted at position `at`. */
  add(
    parent: MemNode,
    namespaceUri: string,
    localName: string,
    attrs: Record<string, string> = {},
    at = parent.children.length,
  ): MemNode {
    const n = this.create(namespaceUri, localName, attrs);
    n.parent = parent;
    parent.children.splice(at, 0, n);
    this.invalidate();
    return n;
  }

  /** Removes `node` (and its subtree) from its parent and from every application listing it. */
  remove(node: MemNode): void {
    const parent = node.parent;
    if (!parent) return;
    parent.children.splice(parent.children.indexOf(node), 1);
    for (const app of this.root.children) {
      const at = app.children.indexOf(node);
      if (at >= 0 && app !== parent) app.children.splice(at, 1);
    }
    node.parent = null;
    this.invalidate();
  }

  /** Sets (or, with undefined, removes) an attribute; `key` as in add(): `Name`, `native:Role`. */
  setAttribute(node: MemNode, key: string, value: string | undefined): void {
    const { namespaceUri, localName } = attributeKey(key);
    const at = node.attrs.findIndex((a) => a.localName === localName && a.namespaceUri === namespaceUri);
    if (value === undefined) {
      if (at >= 0) node.attrs.splice(at, 1);
    } else if (at >= 0) node.attrs[at] = { namespaceUri, localName, value };
    else node.attrs.push({ namespaceUri, localName, value });
    this.invalidate();
  }

  /** Drops the name index: call it after changing nodes' children or attributes directly. */
  invalidate(): void {
    this.names = undefined;
  }

  create(namespaceUri: string, localName: string, attrs: Record<string, string> = {}): MemNode {
    const list: XdmAttribute[] = [];
    for (const [key, value] of Object.entries(attrs)) list.push({ ...attributeKey(key), value });
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
    this.invalidate();
  }

  resetCounters(): void {
    this.accesses = 0;
    this.childLists = 0;
    this.checks = 0;
    this.nameReads = 0;
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
  elementsNamed(namespaceUri: string, localName: string, name?: string): ElementList<MemNode> | undefined {
    if (!this.index) return undefined;
    if (!this.names) {
      this.indexBuilds++;
      this.names = new NameIndex({
        root: this.root,
        children: (n) => n.children,
        parent: (n) => n.parent,
        namespaceUri: (n) => n.namespaceUri,
        localName: (n) => n.localName,
        name: (n) => {
          this.nameReads++;
          return n.attrs.find((a) => a.localName === 'Name' && a.namespaceUri === null)?.value;
        },
      });
    }
    if (name === undefined) this.indexLookups++;
    else this.nameLookups++;
    return this.names.get(namespaceUri, localName, name);
  }
  checkCancelled(): void {
    if (++this.checks >= this.cancelAfter) throw new CancelledError();
  }
}
