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
  type NodeRecord,
} from '../protocol.js';

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
  /** The application that lists this top-level window (grouped view). */
  application: MirrorNode | undefined;
  constructor(
    readonly h: number,
    readonly parent: MirrorNode | null,
    readonly ns: Namespace,
    readonly role: string,
    readonly name: string,
    readonly rid: string,
    readonly id: string | undefined,
  ) {}
}

const WAIT_SLICE_MS = 20;
/** Steps between two reads of the cancel flag: a step takes well under a microsecond, so a cancel is seen at once. */
const CHECK_EVERY = 32;

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/**
 * How the top of the tree is shaped for an engine. `dag` is the contract of shared/xpath/tree.ts (applications list
 * the same window nodes the document lists; the fast path skips those alias edges). fontoxpath cannot follow alias
 * edges (it walks siblings through a node's one parent), so it gets a proper tree: `flat` (windows under the
 * document, applications without children) or `grouped` (windows under their application) chosen by the query.
 */
export type TreeView = 'dag' | 'flat' | 'grouped';

/** The worker's view of the runtime's tree: filled on demand through the blocking bridge (see ../protocol.ts). */
export class MirrorTree implements XdmTree<MirrorNode> {
  readonly root: MirrorNode;
  private readonly nodes = new Map<number, MirrorNode>();
  bridgeCalls = 0;
  view: TreeView = 'dag';
  /** Set when a cancellation was raised, even if an engine wrapped the error into its own. */
  cancelRaised = false;
  /** Nodes whose children the mirror does not hold yet: while there are any, there is no index by name. */
  private unlisted = 0;
  /**
   * The index by name, built (buildIndex) once the mirror holds the whole tree. A mirror belongs to one tree
   * generation and only grows within it (the worker builds a new mirror when the runtime's tree changes), so an
   * index built from a complete mirror stays exact for the mirror's lifetime.
   */
  private names: NameIndex<MirrorNode> | undefined;
  /** Times the index was built (0 or 1 per mirror). */
  indexBuilds = 0;

  constructor(
    rootRecord: NodeRecord,
    private readonly port: MessagePort,
    private readonly control: Int32Array,
  ) {
    this.root = this.adopt(rootRecord);
  }

  node(handle: number): MirrorNode | undefined {
    return this.nodes.get(handle);
  }

  private adopt(record: NodeRecord): MirrorNode {
    let node = this.nodes.get(record.h);
    if (!node) {
      const parent = record.p >= 0 ? (this.nodes.get(record.p) ?? null) : null;
      node = new MirrorNode(record.h, parent, record.ns, record.role, record.name, record.rid, record.id);
      this.nodes.set(record.h, node);
      this.unlisted++;
    }
    if (record.g !== undefined) node.application = this.nodes.get(record.g);
    if (record.kids && !node.children)
      this.setChildren(
        node,
        record.kids.map((kid) => this.adopt(kid)),
      );
    return node;
  }

  private setChildren(node: MirrorNode, children: MirrorNode[]): void {
    node.children = children;
    this.unlisted--;
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
    if (this.view !== 'dag' || !this.names) return undefined;
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
    if (this.view === 'grouped' && node.application && node.parent === this.root) return node.application;
    return node.parent;
  }

  children(node: MirrorNode): readonly MirrorNode[] {
    const children = this.fetchChildren(node);
    if (this.view === 'dag') return children;
    if (node === this.root) {
      if (this.view === 'flat') return children;
      for (const child of children) if (child.ns === 'app') this.fetchChildren(child);
      return children.filter((child) => !child.application);
    }
    if (node.ns === 'app' && node.parent === this.root) return this.view === 'flat' ? [] : children;
    return children;
  }

  private fetchChildren(node: MirrorNode): readonly MirrorNode[] {
    if (!node.children) {
      const response = this.request({ op: 'children', h: node.h });
      // A node whose provider failed (application gone, not responding) has no children to a query.
      this.setChildren(node, response.ok && 'children' in response ? response.children.map((r) => this.adopt(r)) : []);
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
