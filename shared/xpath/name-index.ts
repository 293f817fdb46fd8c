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
  size = 0;

  constructor(private readonly source: NameIndexSource<N>) {
    let lastNs: string | undefined;
    let lastLocal: string | undefined;
    let lastGroup: N[] = [];
    this.walk(source.children(source.root), source.root, (node) => {
      const ns = source.namespaceUri(node);
      const local = source.localName(node);
      // Siblings mostly share their role: the group of the previous element first, then the maps.
      if (local !== lastLocal || ns !== lastNs) {
        lastGroup = this.group(ns, local);
        lastNs = ns;
        lastLocal = local;
      }
      lastGroup.push(node);
    });
  }

  private group(ns: string, local: string): N[] {
    let byLocal = this.byNamespace.get(ns);
    if (!byLocal) this.byNamespace.set(ns, (byLocal = new Map()));
    let group = byLocal.get(local);
    if (!group) byLocal.set(local, (group = []));
    return group;
  }

  /** Preorder over `list` (listed by `owner`) and below, alias edges skipped, without recursion (trees are deep). */
  private walk(list: readonly N[], owner: N, visit: (node: N) => void): void {
    const { source } = this;
    const lists: (readonly N[])[] = [list];
    const owners: N[] = [owner];
    const at: number[] = [0];
    while (lists.length) {
      const top = lists.length - 1;
      const current = lists[top]!;
      const i = at[top]!;
      if (i >= current.length) {
        lists.pop();
        owners.pop();
        at.pop();
        continue;
      }
      at[top] = i + 1;
      const node = current[i]!;
      if (source.parent(node) !== owners[top]) continue; // an alias edge
      this.size++;
      visit(node);
      const kids = source.children(node);
      if (kids.length) {
        lists.push(kids);
        owners.push(node);
        at.push(0);
      }
    }
  }

  /**
   * Follows a change of one child list: `removed` are every element of the subtrees that left it (as the index
   * holds them), `added` the new children whose subtrees the source now holds whole. Their elements go into their
   * groups at their place in document order (`compare`), found by binary search: a subtree's elements of one group
   * are contiguous in it. Groups touched forget what they found by Name.
   */
  patch(removed: readonly N[], added: readonly N[], compare: (a: N, b: N) => number): void {
    const { source } = this;
    const touched = new Set<N[]>();
    if (removed.length) {
      const gone = new Set(removed);
      const groups = new Set<N[]>();
      for (const node of removed) groups.add(this.group(source.namespaceUri(node), source.localName(node)));
      for (const group of groups) {
        let kept = 0;
        for (let i = 0; i < group.length; i++) if (!gone.has(group[i]!)) group[kept++] = group[i]!;
        this.size -= group.length - kept;
        group.length = kept;
        touched.add(group);
      }
    }
    for (const root of added) {
      const parts = new Map<N[], N[]>();
      this.walk([root], source.parent(root)!, (node) => {
        const group = this.group(source.namespaceUri(node), source.localName(node));
        let part = parts.get(group);
        if (!part) parts.set(group, (part = []));
        part.push(node);
      });
      for (const [group, part] of parts) {
        let low = 0;
        let high = group.length;
        while (low < high) {
          const mid = (low + high) >>> 1;
          if (compare(group[mid]!, root) < 0) low = mid + 1;
          else high = mid;
        }
        group.splice(low, 0, ...part);
        touched.add(group);
      }
    }
    for (const group of touched) this.byName.delete(group);
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
