import { attributeKey, NAMESPACE_URIS, parseAttributeKey, type Namespace } from '../model/namespaces.js';
import { formatValueText } from '../model/values.js';
import type { SnapshotNode } from '../snapshot/model.js';
import { NameIndex } from '../xpath/name-index.js';
import type { ElementList, XdmAttribute, XdmTree } from '../xpath/tree.js';

/**
 * A node of the in-memory tree locators are generated over. `parent` is the grouped view's parent: an application
 * for the windows it owns, the document for applications and windows that belong to none. Attribute values are the
 * XPath string values, keyed like JSON output (`Name`, `native:Role`).
 */
export interface LocatorNode {
  readonly namespace: Namespace;
  readonly role: string;
  readonly name: string;
  readonly attributes: ReadonlyMap<string, string>;
  parent: LocatorNode | null;
  children: LocatorNode[];
  /** The runtime id (or any key) the node was built from; survives mutations in the robustness harness. */
  readonly key: string;
}

export interface LocatorTree {
  /** The document node (the desktop). */
  readonly root: LocatorNode;
  /** Every node except the root, in document order. */
  readonly nodes: readonly LocatorNode[];
}

export function isApplication(node: LocatorNode): boolean {
  return node.namespace === 'app' && node.role === 'Application';
}

/** A top-level window: a child of the document or of an application. */
export function isTopLevel(node: LocatorNode, tree: LocatorTree): boolean {
  return node.parent === tree.root || (node.parent !== null && isApplication(node.parent));
}

export interface LocatorNodeInit {
  namespace: Namespace;
  role: string;
  name?: string;
  key: string;
  attributes?: ReadonlyMap<string, string>;
  children?: LocatorNodeInit[];
}

export function makeRoot(): LocatorNode {
  return {
    namespace: 'control',
    role: '#document',
    name: '',
    attributes: new Map(),
    parent: null,
    children: [],
    key: '#root',
  };
}

/**
 * Builds a tree (grouped view) from node descriptions; returns it with the nodes in document order. A description's
 * attribute map that holds the Name is shared, not copied (a LocatorTree never changes its maps; deepClone copies
 * them for trees that are edited). `replaced` gives some nodes other attributes, by key.
 */
export function buildLocatorTree(
  tops: readonly LocatorNodeInit[],
  replaced?: ReadonlyMap<string, ReadonlyMap<string, string>>,
): LocatorTree {
  const root = makeRoot();
  const nodes: LocatorNode[] = [];
  const add = (init: LocatorNodeInit, parent: LocatorNode): void => {
    const given = replaced?.get(init.key) ?? init.attributes;
    const name = init.name ?? given?.get('Name') ?? '';
    let attributes: ReadonlyMap<string, string>;
    if (given?.has('Name')) attributes = given;
    else attributes = new Map(given ?? []).set('Name', name);
    const node: LocatorNode = {
      namespace: init.namespace,
      role: init.role,
      name,
      attributes,
      parent,
      children: [],
      key: init.key,
    };
    parent.children.push(node);
    nodes.push(node);
    for (const child of init.children ?? []) add(child, node);
  };
  for (const top of tops) add(top, root);
  return { root, nodes };
}

/** Rebuilds `nodes` after the tree was edited in place (mutations). */
export function reindex(root: LocatorNode): LocatorTree {
  const nodes: LocatorNode[] = [];
  const walk = (node: LocatorNode): void => {
    for (const child of node.children) {
      child.parent = node;
      nodes.push(child);
      walk(child);
    }
  };
  walk(root);
  return { root, nodes };
}

/** From snapshot nodes (mock trees, snapshot files): keys are the RuntimeId attribute, else the document position. */
export function locatorTreeFromSnapshot(roots: readonly SnapshotNode[]): LocatorTree {
  let counter = 0;
  const convert = (node: SnapshotNode): LocatorNodeInit => {
    const attributes = new Map<string, string>();
    for (const entry of node.attributes)
      attributes.set(attributeKey(entry.namespace, entry.name), formatValueText(entry.value));
    const key = attributes.get('RuntimeId') ?? `node-${counter++}`;
    return { namespace: node.namespace, role: node.role, key, attributes, children: node.children.map(convert) };
  };
  return buildLocatorTree(roots.map(convert));
}

export function deepClone(tree: LocatorTree): LocatorTree {
  const copy = (node: LocatorNode, parent: LocatorNode | null): LocatorNode => {
    const out: LocatorNode = { ...node, attributes: new Map(node.attributes), parent, children: [] };
    out.children = node.children.map((child) => copy(child, out));
    return out;
  };
  return reindex(copy(tree.root, null));
}

/**
 * The XdmTree of a LocatorTree, shaped like the runtime's worker shapes its mirror (main/xpath/worker): the
 * document lists the applications and then every top-level window, and an application lists its windows again
 * (alias edges; a window's parent is the document). So a locator verified here behaves as it will against the live
 * tree.
 */
export class LocatorXdmTree implements XdmTree<LocatorNode> {
  private readonly attributeCache = new Map<LocatorNode, XdmAttribute[]>();
  private positions: Map<LocatorNode, number> | undefined;
  private names: NameIndex<LocatorNode> | undefined;
  private rootChildren: LocatorNode[] | undefined;
  /** The tree must not change while this view is in use (positions and the name index are built once). */
  constructor(readonly tree: LocatorTree) {}
  get root(): LocatorNode {
    return this.tree.root;
  }
  isDocument(node: LocatorNode): boolean {
    return node === this.tree.root;
  }
  namespaceUri(node: LocatorNode): string {
    return NAMESPACE_URIS[node.namespace];
  }
  localName(node: LocatorNode): string {
    return node.role;
  }
  prefix(node: LocatorNode): string {
    return node.namespace === 'control' ? '' : node.namespace;
  }
  private ownedWindow(node: LocatorNode): boolean {
    return node.parent !== null && isApplication(node.parent) && node.parent.parent === this.tree.root;
  }
  parent(node: LocatorNode): LocatorNode | null {
    if (this.ownedWindow(node)) return this.tree.root;
    return node.parent;
  }
  children(node: LocatorNode): readonly LocatorNode[] {
    if (node === this.tree.root) {
      if (!this.rootChildren) {
        const apps = node.children.filter(isApplication);
        const windows = apps.flatMap((app) => app.children);
        this.rootChildren = [...apps, ...windows, ...node.children.filter((child) => !isApplication(child))];
      }
      return this.rootChildren;
    }
    return node.children;
  }
  attributes(node: LocatorNode): readonly XdmAttribute[] {
    if (node === this.tree.root) return [];
    let cached = this.attributeCache.get(node);
    if (!cached) {
      cached = [];
      for (const [key, value] of node.attributes) {
        const parsed = parseAttributeKey(key);
        if (!parsed) continue;
        cached.push({
          namespaceUri: parsed.namespace === 'control' ? null : NAMESPACE_URIS[parsed.namespace],
          localName: parsed.name,
          value,
        });
      }
      this.attributeCache.set(node, cached);
    }
    return cached;
  }
  attribute(node: LocatorNode, namespaceUri: string | null, localName: string): string | undefined {
    return this.attributes(node).find((a) => a.namespaceUri === namespaceUri && a.localName === localName)?.value;
  }
  /** Preorder over the real tree (alias edges skipped), as the fast path's document order expects. */
  documentPosition(node: LocatorNode): number {
    if (!this.positions) {
      const positions = new Map<LocatorNode, number>([[this.tree.root, 0]]);
      const visit = (parent: LocatorNode): void => {
        for (const child of this.children(parent)) {
          if (this.parent(child) !== parent) continue;
          positions.set(child, positions.size);
          visit(child);
        }
      };
      visit(this.tree.root);
      this.positions = positions;
    }
    return this.positions.get(node) ?? Number.MAX_SAFE_INTEGER;
  }
  /** The elements of a role (and Name), for `//Button[@Name='OK']` without walking the whole tree. */
  elementsNamed(namespaceUri: string, localName: string, name?: string): ElementList<LocatorNode> {
    this.names ??= new NameIndex({
      root: this.tree.root,
      children: (node) => this.children(node),
      parent: (node) => this.parent(node),
      namespaceUri: (node) => this.namespaceUri(node),
      localName: (node) => this.localName(node),
      name: (node) => node.attributes.get('Name'),
    });
    return this.names.get(namespaceUri, localName, name);
  }
  checkCancelled(): void {}
}
