import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { InspectorError } from '../../../shared/model/errors.js';
import { NAMESPACE_URIS, type Namespace } from '../../../shared/model/namespaces.js';
import { NameIndex } from '../../../shared/xpath/name-index.js';
import type { ElementList, XdmAttribute, XdmTree } from '../../../shared/xpath/tree.js';
import {
  CANCEL,
  READY,
  type AttributeRecord,
  type BridgeRequest,
  type BridgeResponse,
  type NodeChange,
} from '../protocol.js';
import { RecordBlockReader, type RecordBlock } from '../record-block.js';

/** Passes over one record of a block and everything sent below it. */
function skip(reader: RecordBlockReader): void {
  const { kids } = reader.next();
  for (let i = 0; i < kids; i++) skip(reader);
}

function toXdmAttribute(record: AttributeRecord): XdmAttribute {
  return {
    namespaceUri: record.ns === 'control' ? null : NAMESPACE_URIS[record.ns],
    localName: record.name,
    value: record.text,
  };
}

export class MirrorNode {
  children: MirrorNode[] | undefined;
  attributes: XdmAttribute[] | undefined;
  /** Attributes fetched by local name before (or instead of) all of them. */
  named: Map<string, readonly XdmAttribute[]> | undefined;
  /** Name, id, namespace and role change with the runtime's reports (MirrorTree.applyChanges). */
  constructor(
    readonly h: number,
    readonly parent: MirrorNode | null,
    public ns: Namespace,
    public role: string,
    public name: string,
    readonly rid: string,
    public id: string | undefined,
  ) {}
}

const WAIT_SLICE_MS = 20;
/** Steps between two reads of the cancel flag: a step takes well under a microsecond, so a cancel is seen at once. */
const CHECK_EVERY = 32;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * The worker's view of the runtime's tree: filled on demand through the blocking bridge (see ../protocol.ts). One
 * shape for both engines, the contract of shared/xpath/tree.ts: applications list the same window nodes the
 * document lists (fontoxpath's facade leaves those alias edges out, see shared/xpath/dom-facade.ts).
 */
export class MirrorTree implements XdmTree<MirrorNode> {
  readonly root: MirrorNode;
  private readonly nodes = new Map<number, MirrorNode>();
  bridgeCalls = 0;
  /** Set when a cancellation was raised, even if an engine wrapped the error into its own. */
  cancelRaised = false;
  /** Nodes whose children the mirror does not hold yet: while there are any, there is no index by name. */
  private unlisted = 0;
  /**
   * The index by name, built (buildIndex) once the mirror holds the whole tree. The mirror follows the runtime's
   * changes (applyChanges): a renamed node keeps the index (its group forgets what it found by Name); a changed
   * list fetched again patches it (NameIndex.patch), or drops it when a new subtree did not come whole (built
   * again from the mirror, without fetching, once it is whole).
   */
  private names: NameIndex<MirrorNode> | undefined;
  /** Times the index was built. */
  indexBuilds = 0;
  /** Node records received, with the root or through the bridge (for one query's stats; the worker resets it). */
  bridgeNodes = 0;
  /** Nodes whose list the runtime reported changed, not fetched again yet (refresh() does, before a query). */
  private readonly stale = new Set<MirrorNode>();
  /** The index was dropped by a change: refresh() builds it again, so the query after a change is indexed too. */
  private rebuildIndex = false;

  constructor(
    rootBlock: RecordBlock,
    private readonly port: MessagePort,
    private readonly control: Int32Array,
    readonly applicationsOnlyAtTop = false,
  ) {
    const [root] = this.adoptBlock(rootBlock);
    if (!root) throw new Error('the XPath worker received no root');
    this.root = root;
  }

  node(handle: number): MirrorNode | undefined {
    return this.nodes.get(handle);
  }

  /** The block's top-level nodes, with everything sent below them adopted too. */
  private adoptBlock(block: RecordBlock): MirrorNode[] {
    const reader = new RecordBlockReader(block);
    const out: MirrorNode[] = [];
    while (!reader.done) out.push(this.adoptNext(reader));
    return out;
  }

  private adoptNext(reader: RecordBlockReader): MirrorNode {
    const { node: record, kids } = reader.next();
    this.bridgeNodes++;
    let node = this.nodes.get(record.h);
    if (!node) {
      const parent = record.p >= 0 ? (this.nodes.get(record.p) ?? null) : null;
      node = new MirrorNode(record.h, parent, record.ns, record.role, record.name, record.rid, record.id);
      this.nodes.set(record.h, node);
      this.unlisted++;
    }
    if (kids >= 0) {
      if (node.children) {
        // A list the mirror holds already stays; what was sent below it is passed over.
        for (let i = 0; i < kids; i++) skip(reader);
      } else {
        const children: MirrorNode[] = new Array<MirrorNode>(kids);
        for (let i = 0; i < kids; i++) children[i] = this.adoptNext(reader);
        this.setChildren(node, children);
      }
    }
    return node;
  }

  private setChildren(node: MirrorNode, children: MirrorNode[]): void {
    node.children = children;
    this.unlisted--;
  }

  /**
   * Takes the runtime's report of what changed since the mirror's generation: the nodes' own fields now, their
   * cached attributes dropped, and their lists marked stale (fetched again by refresh()). Nodes the mirror does not
   * hold are not in it, so there is nothing to drop for them.
   */
  applyChanges(changes: readonly NodeChange[]): void {
    for (const { record, children } of changes) {
      const node = this.nodes.get(record.h);
      if (!node) continue;
      node.attributes = undefined;
      node.named = undefined;
      if (node.ns !== record.ns || node.role !== record.role) {
        this.dropIndexForChange();
        node.ns = record.ns;
        node.role = record.role;
      } else if (node.name !== record.name) {
        this.names?.forgetNames(NAMESPACE_URIS[node.ns], node.role);
      }
      node.name = record.name;
      node.id = record.id;
      if (children && node.children) this.stale.add(node);
    }
  }

  private dropIndexForChange(): void {
    if (this.names) this.rebuildIndex = true;
    this.names = undefined;
  }

  /**
   * Fetches the stale lists again (top down: a list inside a subtree that went away is not fetched), forgets the
   * nodes that left them, then builds the index again if a change dropped it and the mirror is whole. Called before
   * a query; a cancellation leaves the remaining lists stale for the next one.
   */
  refresh(): void {
    if (this.stale.size > 0) {
      const depth = (node: MirrorNode) => {
        let d = 0;
        for (let n = node.parent; n; n = n.parent) d++;
        return d;
      };
      const pending = [...this.stale].sort((a, b) => depth(a) - depth(b));
      for (const node of pending) {
        if (this.nodes.get(node.h) !== node || !node.children) {
          this.stale.delete(node);
          continue;
        }
        const old = node.children;
        const response = this.request({ op: 'refresh', h: node.h, known: old.map((child) => child.h) });
        const fresh = response.ok && 'children' in response ? this.adoptBlock(response.children) : [];
        node.children = fresh;
        const kept = new Set(fresh);
        const removed: MirrorNode[] = [];
        for (const child of old) if (!kept.has(child) && child.parent === node) this.forget(child, removed);
        this.stale.delete(node);
        // The index follows the list when the mirror is whole again (the new subtrees came whole), else it goes.
        if (!this.names) continue;
        if (this.unlisted !== 0) this.dropIndexForChange();
        else {
          const before = new Set(old);
          const added = fresh.filter((child) => !before.has(child) && child.parent === node);
          this.names.patch(removed, added, (a, b) => this.compareOrder(a, b));
          this.indexPatches++;
        }
      }
    }
    if (this.rebuildIndex && this.buildIndex()) this.rebuildIndex = false;
  }

  /** Document order of two elements the mirror holds (real edges only: an element's place in its parent's list). */
  private compareOrder(a: MirrorNode, b: MirrorNode): number {
    if (a === b) return 0;
    const path = (node: MirrorNode) => {
      const out: MirrorNode[] = [];
      for (let n: MirrorNode | null = node; n; n = n.parent) out.push(n);
      return out.reverse();
    };
    const pa = path(a);
    const pb = path(b);
    let d = 0;
    while (d < pa.length && d < pb.length && pa[d] === pb[d]) d++;
    if (d === pa.length) return -1; // a is an ancestor of b
    if (d === pb.length) return 1;
    const siblings = pa[d - 1]!.children!;
    return siblings.indexOf(pa[d]!) - siblings.indexOf(pb[d]!);
  }

  /** Times the index followed a changed list instead of being built again (for tests). */
  indexPatches = 0;

  /** Drops a node that left the tree and everything below it from the mirror (collected in `out`). */
  private forget(node: MirrorNode, out: MirrorNode[]): void {
    const below = [node];
    for (let next = below.pop(); next; next = below.pop()) {
      if (this.nodes.get(next.h) !== next) continue;
      out.push(next);
      this.nodes.delete(next.h);
      this.stale.delete(next);
      if (!next.children) this.unlisted--;
      else for (const child of next.children) if (child.parent === next) below.push(child);
    }
  }

  /** True when the mirror holds every node's children (so the whole tree, as of its generation). */
  get complete(): boolean {
    return this.unlisted === 0;
  }

  /**
   * Builds the index by name if the mirror is complete and has none yet; true when the mirror then has one. The
   * worker calls it when idle after a query, never during one: building walks every node, which a first-match
   * query must not pay for.
   */
  buildIndex(): boolean {
    if (this.names) return true;
    if (this.unlisted !== 0) return false;
    this.indexBuilds++;
    this.names = new NameIndex({
      root: this.root,
      children: (n) => n.children!,
      parent: (n) => n.parent,
      namespaceUri: (n) => NAMESPACE_URIS[n.ns],
      localName: (n) => n.role,
      name: (n) => this.attribute(n, null, 'Name'),
    });
    return true;
  }

  /** True once the index by name is built. */
  get indexed(): boolean {
    return this.names !== undefined;
  }

  /** Drops the index (measurements of queries without one). */
  dropIndex(): void {
    this.names = undefined;
  }

  /** From the index once buildIndex() made one (never building or fetching here); undefined before. */
  elementsNamed(namespaceUri: string, localName: string, name?: string): ElementList<MirrorNode> | undefined {
    if (!this.names) return undefined;
    return this.names.get(namespaceUri, localName, name);
  }

  /** Engines call checkCancelled() at every step; the shared flag is read at every CHECK_EVERY-th call. */
  private untilCheck = 0;

  checkCancelled(): void {
    if (--this.untilCheck > 0) return;
    this.untilCheck = CHECK_EVERY;
    this.checkFlag();
  }

  private checkFlag(): void {
    if (Atomics.load(this.control, CANCEL) !== 0) {
      this.cancelRaised = true;
      throw new InspectorError('cancelled', 'the evaluation was cancelled');
    }
  }

  private nextSeq = 1;

  private request(request: DistributiveOmit<BridgeRequest, 'seq'>): BridgeResponse {
    this.checkFlag();
    this.bridgeCalls++;
    const seq = this.nextSeq++;
    let answers = Atomics.load(this.control, READY);
    this.port.postMessage({ ...request, seq });
    for (;;) {
      for (let message = receiveMessageOnPort(this.port); message; message = receiveMessageOnPort(this.port)) {
        const response = message.message as BridgeResponse;
        if (response.seq === seq) return response;
      }
      Atomics.wait(this.control, READY, answers, WAIT_SLICE_MS);
      answers = Atomics.load(this.control, READY);
      this.checkFlag();
    }
  }

  isDocument(node: MirrorNode): boolean {
    return node === this.root;
  }
  namespaceUri(node: MirrorNode): string {
    return NAMESPACE_URIS[node.ns];
  }
  localName(node: MirrorNode): string {
    return node.role;
  }
  prefix(node: MirrorNode): string {
    return node.ns === 'control' ? '' : node.ns;
  }
  parent(node: MirrorNode): MirrorNode | null {
    return node.parent;
  }

  children(node: MirrorNode): readonly MirrorNode[] {
    if (!node.children) {
      const response = this.request({ op: 'children', h: node.h });
      // A node whose provider failed (application gone, not responding) has no children to a query.
      this.setChildren(node, response.ok && 'children' in response ? this.adoptBlock(response.children) : []);
    }
    return node.children!;
  }

  attributes(node: MirrorNode): readonly XdmAttribute[] {
    if (node === this.root) return [];
    if (!node.attributes) {
      const response = this.request({ op: 'attributes', h: node.h });
      node.attributes = response.ok && 'attributes' in response ? response.attributes.map(toXdmAttribute) : [];
    }
    return node.attributes;
  }

  attributesNamed(node: MirrorNode, localName: string): readonly XdmAttribute[] {
    if (node === this.root) return [];
    if (!node.attributes) {
      // The name, runtime id and developer id travel with the node; other names need the node's attributes.
      if (localName === 'Name') return [{ namespaceUri: null, localName, value: node.name }];
      if (localName === 'RuntimeId') return [{ namespaceUri: null, localName, value: node.rid }];
      if (localName === 'Id') return node.id === undefined ? [] : [{ namespaceUri: null, localName, value: node.id }];
    }
    if (node.attributes) return node.attributes.filter((attribute) => attribute.localName === localName);
    node.named ??= new Map();
    let named = node.named.get(localName);
    if (!named) {
      const response = this.request({ op: 'named', h: node.h, name: localName });
      named = response.ok && 'attributes' in response ? response.attributes.map(toXdmAttribute) : [];
      node.named.set(localName, named);
    }
    return named;
  }

  attribute(node: MirrorNode, namespaceUri: string | null, localName: string): string | undefined {
    if (node === this.root) return undefined;
    if (namespaceUri === null) {
      if (localName === 'Name') return node.name;
      if (localName === 'RuntimeId') return node.rid;
      if (localName === 'Id') return node.id;
    }
    return this.attributesNamed(node, localName).find((a) => a.namespaceUri === namespaceUri)?.value;
  }
}
