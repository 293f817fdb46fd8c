import type { XdmAttribute, XdmTree } from './tree.js';

/** DOM-shaped wrappers fontoxpath navigates; one per tree node, so node identity holds across an evaluation. */
export interface FacadeElement<N> {
  readonly nodeType: 1 | 9;
  readonly nodeName: string;
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly prefix: string | null;
  readonly source: N;
}

export interface FacadeAttribute<N> {
  readonly nodeType: 2;
  readonly nodeName: string;
  readonly name: string;
  readonly localName: string;
  readonly namespaceURI: string | null;
  readonly prefix: string | null;
  readonly value: string;
  readonly owner: N;
}

type FacadeNode<N> = FacadeElement<N> | FacadeAttribute<N>;

/**
 * fontoxpath's IDomFacade over an XdmTree, without the tree's alias edges: a node's children are those whose parent
 * it is, so an application's windows (whose parent is the document) are the document's children only. That is a
 * proper tree, which a DOM facade can express; the queries it would answer differently from the tree with alias
 * edges are refused before fontoxpath runs (one-tree.ts).
 */
export class XdmDomFacade<N> {
  private readonly wrappers = new Map<N, FacadeElement<N>>();
  private readonly indexInParent = new Map<N, number>();
  private readonly attributeWrappers = new Map<N, Map<string, FacadeAttribute<N>>>();

  constructor(private readonly tree: XdmTree<N>) {}

  wrap(node: N): FacadeElement<N> {
    let wrapper = this.wrappers.get(node);
    if (!wrapper) {
      const tree = this.tree;
      if (tree.isDocument(node)) {
        wrapper = { nodeType: 9, nodeName: '#document', localName: '', namespaceURI: null, prefix: null, source: node };
      } else {
        const prefix = tree.prefix(node);
        const localName = tree.localName(node);
        wrapper = {
          nodeType: 1,
          nodeName: prefix ? `${prefix}:${localName}` : localName,
          localName,
          namespaceURI: tree.namespaceUri(node),
          prefix: prefix || null,
          source: node,
        };
      }
      this.wrappers.set(node, wrapper);
    }
    return wrapper;
  }

  get root(): FacadeElement<N> {
    return this.wrap(this.tree.root);
  }

  private childrenOf(node: N): readonly N[] {
    this.tree.checkCancelled();
    const listed = this.tree.children(node);
    const children = listed.some((child) => this.tree.parent(child) !== node)
      ? listed.filter((child) => this.tree.parent(child) === node)
      : listed;
    children.forEach((child, index) => this.indexInParent.set(child, index));
    return children;
  }

  private sibling(wrapper: FacadeNode<N>, step: 1 | -1): FacadeElement<N> | null {
    if (wrapper.nodeType === 2) return null;
    const parent = this.tree.parent(wrapper.source);
    if (parent === null) return null;
    const siblings = this.childrenOf(parent);
    const index = this.indexInParent.get(wrapper.source) ?? siblings.indexOf(wrapper.source);
    const next = siblings[index + step];
    return next === undefined ? null : this.wrap(next);
  }

  getChildNodes(wrapper: FacadeNode<N>): FacadeElement<N>[] {
    if (wrapper.nodeType === 2) return [];
    return this.childrenOf(wrapper.source).map((child) => this.wrap(child));
  }

  getFirstChild(wrapper: FacadeNode<N>): FacadeElement<N> | null {
    if (wrapper.nodeType === 2) return null;
    const first = this.childrenOf(wrapper.source)[0];
    return first === undefined ? null : this.wrap(first);
  }

  getLastChild(wrapper: FacadeNode<N>): FacadeElement<N> | null {
    if (wrapper.nodeType === 2) return null;
    const children = this.childrenOf(wrapper.source);
    const last = children[children.length - 1];
    return last === undefined ? null : this.wrap(last);
  }

  getNextSibling(wrapper: FacadeNode<N>): FacadeElement<N> | null {
    return this.sibling(wrapper, 1);
  }

  getPreviousSibling(wrapper: FacadeNode<N>): FacadeElement<N> | null {
    return this.sibling(wrapper, -1);
  }

  getParentNode(wrapper: FacadeNode<N>): FacadeElement<N> | null {
    if (wrapper.nodeType === 2) return this.wrap(wrapper.owner);
    const parent = this.tree.parent(wrapper.source);
    return parent === null ? null : this.wrap(parent);
  }

  getAllAttributes(wrapper: FacadeNode<N>, bucket?: string | null): FacadeAttribute<N>[] {
    if (wrapper.nodeType !== 1) return [];
    this.tree.checkCancelled();
    const owner = wrapper.source;
    // fontoxpath names the attribute it looks for in the bucket (`name-Name` for @Name); fetch only that when we can.
    const named = bucket?.startsWith('name-') ? bucket.slice(5) : undefined;
    const attributes =
      named === undefined
        ? this.tree.attributes(owner)
        : this.tree.attributesNamed
          ? this.tree.attributesNamed(owner, named)
          : this.tree.attributes(owner).filter((attribute) => attribute.localName === named);
    return attributes.map((attribute) => this.wrapAttribute(owner, attribute));
  }

  /** One wrapper per attribute, as per element: fontoxpath tells nodes apart by identity (`@* | @Name`). */
  private wrapAttribute(owner: N, attribute: XdmAttribute): FacadeAttribute<N> {
    let byName = this.attributeWrappers.get(owner);
    if (!byName) this.attributeWrappers.set(owner, (byName = new Map()));
    const key = `${attribute.namespaceUri ?? ''} ${attribute.localName}`;
    let wrapper = byName.get(key);
    if (!wrapper) {
      const prefix = attribute.namespaceUri ? prefixOf(attribute.namespaceUri) : null;
      const name = prefix ? `${prefix}:${attribute.localName}` : attribute.localName;
      wrapper = {
        nodeType: 2,
        nodeName: name,
        name,
        localName: attribute.localName,
        namespaceURI: attribute.namespaceUri,
        prefix,
        get value() {
          return attribute.value;
        },
        owner,
      };
      byName.set(key, wrapper);
    }
    return wrapper;
  }

  getAttribute(wrapper: FacadeNode<N>, name: string): string | null {
    if (wrapper.nodeType !== 1) return null;
    return this.tree.attribute(wrapper.source, null, name) ?? null;
  }

  getData(wrapper: FacadeNode<N>): string {
    return wrapper.nodeType === 2 ? wrapper.value : '';
  }
}

function prefixOf(uri: string): string | null {
  const match = /^urn:platynui:(\w+)$/.exec(uri);
  return match ? match[1]! : null;
}
