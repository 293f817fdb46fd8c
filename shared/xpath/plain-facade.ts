/**
 * fontoxpath over an XdmTree through a plain DOM-like facade: the reference the fast path is compared with (the
 * differential test and bench/xpath-fast-path.ts). Nodes are wrapped once each; siblings are computed from a
 * node's real parent, so a walk never runs into an alias edge (an application's windows, whose parent is the
 * document): fontoxpath would loop or duplicate there.
 *
 * Note what a stateless DOM facade cannot express: alias edges that only the walk started at the application
 * follows. fontoxpath sees an application's first window as its first child and then that window's real next
 * siblings, so `app:Application/Window` is exact only when the application's windows are the document's last
 * windows, in order; the fast path implements the contract of tree.ts for every tree.
 */
import fontoxpath from 'fontoxpath';
import type { XdmAttribute, XdmTree } from './tree.js';
import { DEFAULT_NAMESPACES, type FastItem } from './fast/index.js';

const { evaluateXPath } = fontoxpath;

interface FNode<N> {
  readonly nodeType: number;
  readonly namespaceURI: string | null;
  readonly localName: string;
  readonly prefix: string | null;
  readonly nodeName: string;
  readonly node: N;
  attrs?: FAttr<N>[];
  index?: number;
}

interface FAttr<N> {
  readonly nodeType: 2;
  readonly namespaceURI: string | null;
  readonly localName: string;
  readonly prefix: string | null;
  readonly name: string;
  readonly nodeName: string;
  readonly value: string;
  readonly owner: FNode<N>;
}

const PREFIXES: Record<string, string> = {
  'urn:platynui:control': 'control',
  'urn:platynui:item': 'item',
  'urn:platynui:app': 'app',
  'urn:platynui:native': 'native',
};

export class PlainFacade<N> {
  private readonly wrappers = new Map<N, FNode<N>>();
  readonly domFacade: object;

  constructor(readonly tree: XdmTree<N>) {
    const kids = (f: FNode<N>) => this.tree.children(f.node).map((n) => this.wrap(n));
    const sibling = (f: FNode<N>, d: number): FNode<N> | null => {
      if (f.nodeType === 2) return null;
      this.tree.checkCancelled();
      const p = this.tree.parent(f.node);
      if (p === null) return null;
      const list = this.tree.children(p);
      let i = f.index;
      if (i === undefined || list[i] !== f.node) i = f.index = list.indexOf(f.node);
      for (let j = i + d; j >= 0 && j < list.length; j += d) {
        const s = list[j]!;
        if (this.tree.parent(s) === p) return this.wrap(s);
      }
      return null;
    };
    this.domFacade = {
      getAllAttributes: (f: FNode<N>) => this.attrs(f),
      getAttribute: (f: FNode<N>, name: string) => {
        const colon = name.indexOf(':');
        const ns = colon < 0 ? null : (DEFAULT_NAMESPACES[name.slice(0, colon)] ?? null);
        return this.tree.attribute(f.node, ns, colon < 0 ? name : name.slice(colon + 1)) ?? null;
      },
      getChildNodes: (f: FNode<N>) => {
        this.tree.checkCancelled();
        return f.nodeType === 2 ? [] : kids(f);
      },
      getData: (a: FAttr<N> | FNode<N>) => (a.nodeType === 2 ? (a as FAttr<N>).value : ''),
      getFirstChild: (f: FNode<N>) => {
        if (f.nodeType === 2) return null;
        this.tree.checkCancelled();
        const c = this.tree.children(f.node);
        return c.length ? this.wrap(c[0]!) : null;
      },
      getLastChild: (f: FNode<N>) => {
        if (f.nodeType === 2) return null;
        this.tree.checkCancelled();
        const c = this.tree.children(f.node);
        return c.length ? this.wrap(c[c.length - 1]!) : null;
      },
      getNextSibling: (f: FNode<N>) => sibling(f, 1),
      getPreviousSibling: (f: FNode<N>) => sibling(f, -1),
      getParentNode: (f: FNode<N> | FAttr<N>) => {
        if (f.nodeType === 2) return (f as FAttr<N>).owner;
        const p = this.tree.parent((f as FNode<N>).node);
        return p === null ? null : this.wrap(p);
      },
    };
  }

  wrap(n: N): FNode<N> {
    let f = this.wrappers.get(n);
    if (f) return f;
    const tree = this.tree;
    if (tree.isDocument(n)) {
      f = { nodeType: 9, namespaceURI: null, localName: '', prefix: null, nodeName: '#document', node: n };
    } else {
      const prefix = tree.prefix(n);
      const local = tree.localName(n);
      f = {
        nodeType: 1,
        namespaceURI: tree.namespaceUri(n),
        localName: local,
        prefix: prefix || null,
        nodeName: prefix ? `${prefix}:${local}` : local,
        node: n,
      };
    }
    this.wrappers.set(n, f);
    return f;
  }

  private attrs(f: FNode<N>): FAttr<N>[] {
    if (f.nodeType !== 1) return [];
    if (!f.attrs) {
      f.attrs = this.tree.attributes(f.node).map((a: XdmAttribute) => {
        const prefix = a.namespaceUri === null ? null : (PREFIXES[a.namespaceUri] ?? 'ns');
        const name = prefix ? `${prefix}:${a.localName}` : a.localName;
        return {
          nodeType: 2,
          namespaceURI: a.namespaceUri,
          localName: a.localName,
          prefix,
          name,
          nodeName: name,
          value: a.value,
          owner: f,
        };
      });
    }
    return f.attrs;
  }

  /** Evaluates with fontoxpath; results in the fast path's item shape. */
  evaluate(xpath: string, context: N, namespaces: Readonly<Record<string, string>> = {}): FastItem<N>[] {
    const ns: Record<string, string> = { ...DEFAULT_NAMESPACES, ...namespaces };
    const raw = evaluateXPath(
      xpath,
      this.wrap(context),
      this.domFacade as never,
      null,
      evaluateXPath.ALL_RESULTS_TYPE,
      {
        namespaceResolver: (p: string) => (p === '' ? (ns[''] ?? DEFAULT_NAMESPACES.control!) : (ns[p] ?? null)),
      },
    ) as unknown[];
    return raw.map((r): FastItem<N> => {
      if (r !== null && typeof r === 'object' && 'nodeType' in r) {
        const x = r as FNode<N> | FAttr<N>;
        if (x.nodeType === 2) {
          const a = x as FAttr<N>;
          return {
            type: 'attribute',
            owner: a.owner.node,
            namespaceUri: a.namespaceURI,
            localName: a.localName,
            value: a.value,
          };
        }
        return { type: 'node', node: (x as FNode<N>).node };
      }
      if (typeof r === 'number' || typeof r === 'string' || typeof r === 'boolean') return { type: 'value', value: r };
      throw new Error(`unexpected fontoxpath result ${String(r)}`);
    });
  }
}
