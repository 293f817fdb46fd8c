/**
 * The index behind XdmTree.elementsNamed: every element below the document, grouped by expanded name, each group in
 * document order. Built in one preorder walk over the real tree (a child counts only under its own parent, so the
 * alias edges from applications to their windows are not followed: each element is listed once).
 */
import type { ElementList } from './tree.js';

export interface NameIndexSource<N> {
  readonly root: N;
  /** The children the tree holds for a node (never fetching). */
  children(node: N): readonly N[];
  parent(node: N): N | null;
  namespaceUri(node: N): string;
  localName(node: N): string;
  /** The node's Name attribute (unnamespaced), as the tree's attribute(node, null, 'Name') answers. */
  name(node: N): string | undefined;
}

const NONE: readonly never[] = Object.freeze([]);

export class NameIndex<N> {
  private readonly byNamespace = new Map<string, Map<string, N[]>>();
  /** Per group: the elements with a given Name attribute, in document order, for the names asked for. */
  private readonly byName = new Map<N[], Map<string, NamedElements<N>>>();
  /** Elements indexed. */
  readonly size: number;

  constructor(private readonly source: NameIndexSource<N>) {
    let size = 0;
    // Preorder without recursion (trees can be deep): a stack of child lists and positions in them.
    const lists: (readonly N[])[] = [source.children(source.root)];
    const owners: N[] = [source.root];
    const at: number[] = [0];
    let lastNs: string | undefined;
    let lastLocal: string | undefined;
    let lastGroup: N[] = [];
    while (lists.length) {
      const top = lists.length - 1;
      const list = lists[top]!;
      const i = at[top]!;
      if (i >= list.length) {
        lists.pop();
        owners.pop();
        at.pop();
        continue;
      }
      at[top] = i + 1;
      const node = list[i]!;
      if (source.parent(node) !== owners[top]) continue; // an alias edge
      size++;
      const ns = source.namespaceUri(node);
      const local = source.localName(node);
      // Siblings mostly share their role: the group of the previous element first, then the maps.
      if (local !== lastLocal || ns !== lastNs) {
        let byLocal = this.byNamespace.get(ns);
        if (!byLocal) this.byNamespace.set(ns, (byLocal = new Map()));
        let group = byLocal.get(local);
        if (!group) byLocal.set(local, (group = []));
        lastGroup = group;
        lastNs = ns;
        lastLocal = local;
      }
      lastGroup.push(node);
      const kids = source.children(node);
      if (kids.length) {
        lists.push(kids);
        owners.push(node);
        at.push(0);
      }
    }
    this.size = size;
  }

  /**
   * Forgets what was found by Name in the group {namespaceUri}localName: call it when the Name of one of its elements
   * changed (the group itself, by role, stays as it is).
   */
  forgetNames(namespaceUri: string, localName: string): void {
    const group = this.byNamespace.get(namespaceUri)?.get(localName);
    if (group) this.byName.delete(group);
  }

  /**
   * The elements named {namespaceUri}localName, in document order (the same array every time: do not change it);
   * with `name`, only those whose Name attribute is `name`: a list that scans the group as far as it is read,
   * remembered for the next query asking for that name.
   */
  get(namespaceUri: string, localName: string, name?: string): ElementList<N> {
    const group = this.byNamespace.get(namespaceUri)?.get(localName);
    if (!group) return NONE;
    if (name === undefined) return group;
    // A map of every name would cost far more to build (hashing every name) than the scans queries need.
    let named = this.byName.get(group);
    if (!named) this.byName.set(group, (named = new Map()));
    let found = named.get(name);
    if (!found) {
      if (named.size >= MAX_NAMES_PER_GROUP) named.clear();
      named.set(name, (found = new NamedElements(group, name, this.source)));
    }
    return found;
  }
}

/** Names remembered per group (a console typing a name asks for each prefix once). */
const MAX_NAMES_PER_GROUP = 256;

/** The elements of a group with one name, found by scanning the group only as far as they are asked for. */
class NamedElements<N> implements ElementList<N> {
  private readonly found: N[] = [];
  private scanned = 0;
  constructor(
    private readonly group: readonly N[],
    private readonly name: string,
    private readonly source: NameIndexSource<N>,
  ) {}

  at(index: number): N | undefined {
    const { found, group } = this;
    while (found.length <= index && this.scanned < group.length) {
      const node = group[this.scanned++]!;
      if (this.source.name(node) === this.name) found.push(node);
    }
    return found[index];
  }
}
