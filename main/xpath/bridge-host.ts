import type { MessagePort } from 'node:worker_threads';
import { toInspectorError } from '../../shared/model/errors.js';
import { formatValueText } from '../../shared/model/values.js';
import { loadHeldIds } from '../runtime/held-ids.js';
import type { RuntimeNode } from '../runtime/node.js';
import { READY, type BridgeRequest, type BridgeResponse, type NodeRecord } from './protocol.js';
import { RecordBlockWriter, type RecordBlock } from './record-block.js';

/** Children the runtime already holds are sent ahead, up to this many records per answer. */
const PREFETCH_BUDGET = 20_000;
/** Nodes below the new children of a refreshed list that the runtime loads before answering (see 'refresh'). */
const REFRESH_LOAD_BUDGET = 5_000;

/**
 * The runtime's side of the XPath bridge: answers the worker's requests for children and attributes by asking the
 * runtime's nodes (asynchronously), then wakes the worker. Handles are stable for the service's lifetime.
 */
export class BridgeHost {
  private readonly byHandle: RuntimeNode[] = [];
  private readonly handles = new Map<RuntimeNode, number>();

  constructor(
    private readonly port: MessagePort,
    private readonly control: Int32Array,
  ) {
    port.on('message', (request: BridgeRequest) => {
      void this.answer(request);
    });
  }

  handleOf(node: RuntimeNode): number {
    let handle = this.handles.get(node);
    if (handle === undefined) {
      handle = this.byHandle.length;
      this.byHandle.push(node);
      this.handles.set(node, handle);
    }
    return handle;
  }

  /** The node's handle if it has one (never making one). */
  knownHandle(node: RuntimeNode): number | undefined {
    return this.handles.get(node);
  }

  nodeOf(handle: number): RuntimeNode | undefined {
    return this.byHandle[handle];
  }

  /** The node's own fields, without children. */
  shallowRecord(node: RuntimeNode): NodeRecord {
    const record: NodeRecord = {
      h: this.handleOf(node),
      p: node.parent ? this.handleOf(node.parent) : -1,
      ns: node.namespace,
      role: node.role,
      name: node.name,
      rid: node.runtimeId,
    };
    if (node.id) record.id = node.id;
    return record;
  }

  /**
   * These nodes, each followed by the children the runtime already holds below it (up to PREFETCH_BUDGET records;
   * below `known` handles nothing more; with `childrenOnly`, their children and nothing below them), as one block:
   * one message however large the region.
   */
  block(nodes: readonly RuntimeNode[], known?: ReadonlySet<number>, childrenOnly = false): RecordBlock {
    const writer = new RecordBlockWriter();
    const budget = { left: PREFETCH_BUDGET };
    const levels = childrenOnly ? 1 : Number.POSITIVE_INFINITY;
    for (const node of nodes) this.write(writer, node, budget, true, levels, known);
    return writer.finish();
  }

  private write(
    writer: RecordBlockWriter,
    node: RuntimeNode,
    budget: { left: number },
    topLevel: boolean,
    levels: number,
    known?: ReadonlySet<number>,
  ): number {
    budget.left--;
    const h = this.handleOf(node);
    const at = writer.add(
      {
        h,
        p: node.parent ? this.handleOf(node.parent) : -1,
        ns: node.namespace,
        role: node.role,
        name: node.name,
        rid: node.runtimeId,
        id: node.id,
      },
      topLevel,
    );
    if (known?.has(h) || levels === 0) return at;
    const cached = node.peekChildren();
    if (cached && budget.left >= cached.length) {
      writer.setKids(at, cached.length);
      for (const child of cached) this.write(writer, child, budget, false, levels - 1);
    }
    return at;
  }

  /**
   * Makes the ids of the nodes block() would send for these nodes definitive first (providers may defer ids until
   * asked: ProviderNode.loadId): the same nodes, in the same order, within the same budget.
   */
  loadIds(nodes: readonly RuntimeNode[], known?: ReadonlySet<number>, childrenOnly = false): Promise<void> {
    const tops = new Set(nodes);
    const stopBelow = (node: RuntimeNode) =>
      (childrenOnly && !tops.has(node)) ||
      (known !== undefined && this.handles.has(node) && known.has(this.handles.get(node)!));
    return loadHeldIds(nodes, { budget: PREFETCH_BUDGET, ...(childrenOnly || known ? { stopBelow } : {}) });
  }

  private async answer(request: BridgeRequest): Promise<void> {
    let response: BridgeResponse;
    try {
      const node = this.byHandle[request.h];
      if (!node) throw new Error(`unknown node handle ${request.h}`);
      if (request.op === 'children' || request.op === 'refresh') {
        const children = await node.children();
        const known = request.op === 'refresh' ? new Set(request.known) : undefined;
        if (known) await loadSubtrees(children.filter((child) => !known.has(this.handles.get(child) ?? -1)));
        await this.loadIds(children, known);
        const block = this.block(children, known);
        response = { seq: request.seq, ok: true, children: block };
      } else {
        const attributes = request.op === 'named' ? await node.attributesNamed(request.name) : await node.attributes();
        response = {
          seq: request.seq,
          ok: true,
          attributes: attributes.map((a) => ({ ns: a.namespace, name: a.name, text: formatValueText(a.value) })),
        };
      }
    } catch (error) {
      response = { seq: request.seq, ok: false, error: toInspectorError(error).toData() };
    }
    this.port.postMessage(response);
    Atomics.add(this.control, READY, 1);
    Atomics.notify(this.control, READY);
  }
}

/** Loads the subtrees below these nodes into the runtime, level by level, up to REFRESH_LOAD_BUDGET nodes. */
async function loadSubtrees(nodes: readonly RuntimeNode[]): Promise<void> {
  let left = REFRESH_LOAD_BUDGET;
  let level = nodes;
  while (level.length > 0 && left > 0) {
    const lists = await Promise.all(level.map((node) => node.children().catch((): readonly RuntimeNode[] => [])));
    const next: RuntimeNode[] = [];
    lists.forEach((list, i) => {
      for (const child of list) if (child.parent === level[i]) next.push(child);
    });
    left -= next.length;
    level = next;
  }
}
