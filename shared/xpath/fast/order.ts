import type { XdmAttribute, XdmTree } from '../tree.js';

/** An attribute reached by the fast path: its owner element and which attribute. */
export class AttrRef<N> {
  /** Index in tree.attributes(owner) once known (document order among an element's attributes). */
  index: number;
  private cached: string | undefined;
  constructor(
    readonly owner: N,
    readonly namespaceUri: string | null,
    readonly localName: string,
    value: string | XdmAttribute,
    index = -1,
  ) {
    this.index = index;
    if (typeof value === 'string') this.cached = value;
    else this.source = value;
  }
  private source: XdmAttribute | undefined;
  get value(): string {
    if (this.cached === undefined) this.cached = this.source!.value;
    return this.cached;
  }
}

export type Item<N> = N | AttrRef<N>;

/**
 * Attributes of one element are ordered by local name, as fontoxpath orders them (XPath leaves it to the
 * implementation; fontoxpath compares localName strings), then by their place in the element's list.
 */
export function compareAttrs<N>(a: AttrRef<N>, b: AttrRef<N>, index: (x: AttrRef<N>) => number): number {
  if (a.localName !== b.localName) return a.localName < b.localName ? -1 : 1;
  return index(a) - index(b);
}

/**
 * Document order over the real tree (alias edges excluded: a window's place is under the document, after the
 * applications). Keys are the child indices from the root, computed on demand and cached for one evaluation.
 */
export class DocOrder<N> {
  private readonly keys = new Map<N, number[]>();
  private readonly indices = new Map<N, Map<N, number>>();
  constructor(private readonly tree: XdmTree<N>) {}

  key(n: N): number[] {
    let k = this.keys.get(n);
    if (k) return k;
    const p = this.tree.parent(n);
    if (p === null) k = [];
    else {
      const pk = this.key(p);
      k = pk.concat(this.indexIn(p, n));
    }
    this.keys.set(n, k);
    return k;
  }

  private indexIn(p: N, n: N): number {
    let m = this.indices.get(p);
    if (!m) {
      m = new Map();
      const kids = this.tree.children(p);
      for (let i = 0; i < kids.length; i++) m.set(kids[i]!, i);
      this.indices.set(p, m);
    }
    const i = m.get(n);
    // A node its parent does not list (a tree changing under the query): order it last, stably.
    return i === undefined ? Number.MAX_SAFE_INTEGER : i;
  }

  private attrIndex(a: AttrRef<N>): number {
    if (a.index < 0) {
      const attrs = this.tree.attributes(a.owner);
      a.index = attrs.findIndex((x) => x.namespaceUri === a.namespaceUri && x.localName === a.localName);
    }
    return a.index;
  }

  compare(a: Item<N>, b: Item<N>): number {
    if (a === b) return 0;
    const aa = a instanceof AttrRef;
    const ba = b instanceof AttrRef;
    const position = this.tree.documentPosition;
    if (position) {
      const d =
        position.call(this.tree, aa ? (a as AttrRef<N>).owner : (a as N)) -
        position.call(this.tree, ba ? (b as AttrRef<N>).owner : (b as N));
      if (d !== 0 || (!aa && !ba)) return d;
      // The same element: its attributes come right after it.
      if (aa && ba) return compareAttrs(a as AttrRef<N>, b as AttrRef<N>, (x) => this.attrIndex(x));
      return aa ? 1 : -1;
    }
    const ka = this.key(aa ? (a as AttrRef<N>).owner : (a as N));
    const kb = this.key(ba ? (b as AttrRef<N>).owner : (b as N));
    const len = Math.min(ka.length, kb.length);
    for (let i = 0; i < len; i++) {
      const d = ka[i]! - kb[i]!;
      if (d !== 0) return d;
    }
    // One is an ancestor-or-self of the other. Attributes come right after their owner, before its children
    // (sequences mixing attributes and elements are never sorted: fontoxpath's order for them is not consistent).
    if (ka.length === kb.length) {
      if (aa && ba) return compareAttrs(a as AttrRef<N>, b as AttrRef<N>, (x) => this.attrIndex(x));
      return aa ? 1 : -1;
    }
    // a's node is a proper ancestor of b's (or the reverse): the ancestor and its attributes come first.
    return ka.length < kb.length ? -1 : 1;
  }

  same(a: Item<N>, b: Item<N>): boolean {
    if (a === b) return true;
    if (a instanceof AttrRef && b instanceof AttrRef)
      return a.owner === b.owner && a.namespaceUri === b.namespaceUri && a.localName === b.localName;
    return false;
  }
}
