import { MessageChannel, Worker } from 'node:worker_threads';
import type { AttributeEntry } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import type { UiValue } from '../../shared/model/values.js';
import { parseValueText, uiBool, uiInteger, uiNumber, uiString } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime, NodeInvalidation } from '../runtime/runtime.js';
import { BridgeHost } from './bridge-host.js';
import { CANCEL, type EvaluateRequest, type NodeChange, type WorkerItem, type WorkerMessage } from './protocol.js';

export type XPathItem =
  | { type: 'node'; node: RuntimeNode }
  | { type: 'attribute'; owner: RuntimeNode; namespace: Namespace; name: string; value: UiValue }
  | { type: 'value'; value: UiValue };

export interface EvaluationStats {
  /** Time spent evaluating and collecting, excluding start-up. */
  evalMs: number;
  /** Nodes materialized from providers during this evaluation. */
  nodesFetched: number;
  results: number;
  engine: string;
  /**
   * The worker held the whole tree indexed by name (after an earlier query of this tree generation brought all of
   * it): `//Button` and `//Button[@Name='OK']` from the document were lookups, not walks.
   */
  indexed: boolean;
  /**
   * Node records the worker received through the bridge for this query: the whole tree's worth after a change the
   * runtime did not detail, only the changed lists and new subtrees after targeted changes, 0 when nothing changed.
   */
  bridgeNodes: number;
}

export interface EvaluateOptions {
  context?: RuntimeNode;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Receives results as they stream in, before the evaluation finishes. */
  onItems?: (items: XPathItem[]) => void;
}

/** How long a cancelled worker may take to stop before it is terminated. */
const CANCEL_GRACE_MS = 80;
/** More changed nodes than this between two queries: the worker builds its mirror anew instead. */
const MAX_CHANGES = 2_000;

interface Pending {
  id: number;
  items: XPathItem[];
  conversions: Array<Promise<void>>;
  resolve: (value: { engine: string; indexed: boolean; bridgeNodes: number }) => void;
  reject: (error: InspectorError) => void;
  options: EvaluateOptions;
  /** Why the caller stopped the evaluation (cancel or timeout); reported instead of the worker's own words. */
  stopReason?: InspectorError;
}

/**
 * Evaluates XPath off the thread that serves the UI and the providers (see protocol.ts for the design), one query
 * at a time; every evaluation can be cancelled and times out.
 */
export class XPathService {
  private worker: Worker | undefined;
  private bridge: BridgeHost | undefined;
  private control: Int32Array | undefined;
  private nextId = 1;
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private ready: Promise<void> | undefined;
  /** The tree generation the worker's mirror was built from. */
  private workerGeneration: number | undefined;
  /**
   * What changed since the worker's generation, node by node (true: its list too); undefined when a change was not
   * detailed (TreeInvalidated, invalidateAll) or there were too many: then the worker builds its mirror anew.
   */
  private changed: Map<RuntimeNode, boolean> | undefined = new Map();
  private readonly unwatch: () => void;

  /**
   * `prestarted`: a worker started before the runtime existed (startXPathWorker), so that it loads while the
   * providers connect; it is used for the first evaluation.
   */
  constructor(
    private readonly runtime: Runtime,
    private prestarted?: StartedXPathWorker,
  ) {
    this.unwatch = runtime.watchTree((changes) => this.onTreeChanges(changes));
  }

  private onTreeChanges(changes: readonly NodeInvalidation[] | 'all'): void {
    const changed = this.changed;
    if (!changed) return;
    if (changes === 'all' || changed.size + changes.length > MAX_CHANGES) {
      this.changed = undefined;
      return;
    }
    for (const { node, children } of changes) changed.set(node, children || changed.get(node) === true);
  }

  /** The next query makes the worker build its mirror anew, as it did on every change before (for measurements). */
  rebuildMirror(): void {
    this.changed = undefined;
  }

  private start(): { worker: Worker; bridge: BridgeHost; control: Int32Array } {
    if (this.worker && this.bridge && this.control)
      return { worker: this.worker, bridge: this.bridge, control: this.control };
    const started = this.prestarted ?? startXPathWorker();
    this.prestarted = undefined;
    const { worker, bridge, control } = started;
    worker.on('message', (message: WorkerMessage) => this.onMessage(message));
    started.onError = (error) =>
      this.failPending(new InspectorError('internal', `XPath worker failed: ${error.message}`));
    worker.on('exit', () => {
      if (this.worker === worker) this.reset();
    });
    this.worker = worker;
    this.bridge = bridge;
    this.control = control;
    this.ready = started.ready;
    return { worker, bridge, control };
  }

  /** Starts the worker and waits until its engines are loaded, so the first evaluation measures only itself. */
  async warmUp(): Promise<void> {
    this.start();
    this.worker?.ref();
    await this.ready;
    this.worker?.unref();
  }

  private reset(): void {
    this.workerGeneration = undefined;
    this.changed = undefined;
    this.ready = undefined;
    this.worker = undefined;
    this.bridge = undefined;
    this.control = undefined;
  }

  private failPending(error: InspectorError): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(pending.stopReason ?? error);
  }

  /** Nodes and values convert at once; attributes need their typed value from the runtime (a promise). */
  private convert(item: WorkerItem, bridge: BridgeHost): XPathItem | Promise<XPathItem | undefined> | undefined {
    if (item.kind === 'value') {
      const value =
        typeof item.value === 'number'
          ? item.integer
            ? uiInteger(item.value)
            : uiNumber(item.value)
          : typeof item.value === 'boolean'
            ? uiBool(item.value)
            : uiString(item.value);
      return { type: 'value', value };
    }
    const node = bridge.nodeOf(item.h);
    if (!node) return undefined;
    if (item.kind === 'node') return { type: 'node', node };
    return node
      .attributesNamed(item.name)
      .then((entries) => entries.find((entry) => entry.namespace === item.ns))
      .then((entry: AttributeEntry | undefined) => ({
        type: 'attribute' as const,
        owner: node,
        namespace: item.ns,
        name: item.name,
        value: entry?.value ?? parseValueText(item.text),
      }));
  }

  /** Converts a batch and hands it on after the batches before it (in the order the worker sent them). */
  private deliver(pending: Pending, items: readonly WorkerItem[], bridge: BridgeHost): void {
    const converted: (XPathItem | undefined)[] = [];
    const waits: Promise<void>[] = [];
    for (const item of items) {
      const c = this.convert(item, bridge);
      if (c instanceof Promise) {
        const at = converted.length;
        converted.push(undefined);
        waits.push(c.then((value) => void (converted[at] = value)));
      } else converted.push(c);
    }
    const hand = () => {
      const out = converted.filter((item): item is XPathItem => item !== undefined);
      for (const item of out) pending.items.push(item);
      pending.options.onItems?.(out);
    };
    const previous = pending.conversions[pending.conversions.length - 1] ?? Promise.resolve();
    pending.conversions.push(waits.length ? Promise.all([previous, ...waits]).then(hand) : previous.then(hand));
  }

  private onMessage(message: WorkerMessage): void {
    if (message.type === 'ready') return;
    const pending = this.pending;
    if (!pending || message.id !== pending.id || !this.bridge) return;
    const bridge = this.bridge;
    if (message.type === 'items') {
      this.deliver(pending, message.items, bridge);
    } else if (message.type === 'nodes') {
      const items: WorkerItem[] = [];
      for (const h of message.handles) items.push({ kind: 'node', h });
      this.deliver(pending, items, bridge);
    } else if (message.type === 'done') {
      this.pending = undefined;
      pending.resolve({ engine: message.engine, indexed: message.indexed, bridgeNodes: message.bridgeNodes });
    } else {
      this.pending = undefined;
      const error = InspectorError.fromData(message.error);
      pending.reject(error.code === 'cancelled' && pending.stopReason ? pending.stopReason : error);
    }
  }

  evaluate(xpath: string, options: EvaluateOptions = {}): Promise<{ items: XPathItem[]; stats: EvaluationStats }> {
    const run = this.queue.then(() => this.run(xpath, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(xpath: string, options: EvaluateOptions): Promise<{ items: XPathItem[]; stats: EvaluationStats }> {
    if (this.closed) throw new InspectorError('cancelled', 'the XPath service was closed');
    if (options.signal?.aborted)
      throw new InspectorError('cancelled', 'the evaluation was cancelled before it started');
    this.runtime.refreshIfBlind();
    const { worker, bridge, control } = this.start();
    Atomics.store(control, CANCEL, 0);
    const fetchedBefore = this.runtime.nodesFetched;
    const started = performance.now();
    const id = this.nextId++;
    const context = options.context ?? this.runtime.desktop;
    // What changed since the worker's generation is taken now; changes reported while ids load go to the next query.
    const generation = this.runtime.generation;
    const since = this.workerGeneration;
    const changed = this.changed;
    this.changed = new Map();
    const sendRoot = since === undefined || (since !== generation && !changed);
    const changedNodes = sendRoot || since === generation ? [] : this.knownNodes(changed!, bridge);
    if (sendRoot) await bridge.loadIds([this.runtime.desktop]);
    else await Promise.all(changedNodes.map(([node]) => node.loadId()));
    const request: EvaluateRequest = {
      type: 'evaluate',
      id,
      xpath,
      context: bridge.handleOf(context),
      generation,
      ...(sendRoot ? { root: bridge.record(this.runtime.desktop, { left: 20_000 }) } : {}),
      ...(!sendRoot && since !== generation
        ? { changes: { since: since!, nodes: this.describe(changedNodes, bridge) } }
        : {}),
    };
    this.workerGeneration = generation;
    let stopTimer: NodeJS.Timeout | undefined;
    let graceTimer: NodeJS.Timeout | undefined;
    const pending: Pending = {
      id,
      items: [],
      conversions: [],
      options,
      resolve: () => undefined,
      reject: () => undefined,
    };
    const outcome = new Promise<{ engine: string; indexed: boolean; bridgeNodes: number }>((resolve, reject) => {
      pending.resolve = resolve;
      pending.reject = reject;
    });
    const stop = (reason: InspectorError) => {
      pending.stopReason ??= reason;
      Atomics.store(control, CANCEL, 1);
      graceTimer = setTimeout(() => {
        if (this.pending !== pending) return;
        void worker.terminate();
        this.reset();
        this.failPending(reason);
      }, CANCEL_GRACE_MS);
    };
    const abort = () => stop(new InspectorError('cancelled', 'the evaluation was cancelled'));
    options.signal?.addEventListener('abort', abort, { once: true });
    if (options.timeoutMs !== undefined) {
      stopTimer = setTimeout(
        () => stop(new InspectorError('timeout', `the evaluation did not finish within ${options.timeoutMs} ms`)),
        options.timeoutMs,
      );
    }
    this.pending = pending;
    worker.ref();
    try {
      worker.postMessage(request);
      const { engine, indexed, bridgeNodes } = await outcome;
      await Promise.all(pending.conversions);
      const evalMs = performance.now() - started;
      return {
        items: pending.items,
        stats: {
          evalMs,
          nodesFetched: this.runtime.nodesFetched - fetchedBefore,
          results: pending.items.length,
          engine,
          indexed,
          bridgeNodes,
        },
      };
    } finally {
      worker.unref();
      if (stopTimer) clearTimeout(stopTimer);
      if (graceTimer) clearTimeout(graceTimer);
      options.signal?.removeEventListener('abort', abort);
    }
  }

  /** The changed nodes the worker may hold (those it was sent a handle for). */
  private knownNodes(changed: Map<RuntimeNode, boolean>, bridge: BridgeHost): Array<[RuntimeNode, boolean]> {
    return [...changed].filter(([node]) => bridge.knownHandle(node) !== undefined);
  }

  private describe(nodes: ReadonlyArray<[RuntimeNode, boolean]>, bridge: BridgeHost): NodeChange[] {
    return nodes.map(([node, children]) => ({ record: bridge.shallowRecord(node), children }));
  }

  async close(): Promise<void> {
    this.unwatch();
    this.closed = true;
    const worker = this.worker;
    this.reset();
    this.failPending(new InspectorError('cancelled', 'the XPath service was closed'));
    await (worker ?? this.prestarted?.worker)?.terminate();
    this.prestarted = undefined;
  }
}

/** An XPath worker started before its XPathService (see the constructor). */
export interface StartedXPathWorker {
  readonly worker: Worker;
  readonly bridge: BridgeHost;
  readonly control: Int32Array;
  /** Resolves when the worker has loaded and said so, or has ended. */
  readonly ready: Promise<void>;
  /** Told when the worker fails; until a service adopts the worker, a failure only ends it. */
  onError: (error: Error) => void;
}

/** Starts an XPath worker; it does not keep the process alive on its own. */
export function startXPathWorker(): StartedXPathWorker {
  const control = new Int32Array(new SharedArrayBuffer(8));
  const channel = new MessageChannel();
  const worker = new Worker(new URL('./worker/xpath-worker.js', import.meta.url), {
    workerData: { port: channel.port2, control: control.buffer },
    transferList: [channel.port2],
  });
  worker.unref();
  channel.port1.unref();
  const ready = new Promise<void>((resolve) => {
    const onMessage = (message: WorkerMessage) => {
      if (message.type !== 'ready') return;
      worker.off('message', onMessage);
      resolve();
    };
    worker.on('message', onMessage);
    worker.once('exit', () => resolve());
  });
  const started: StartedXPathWorker = {
    worker,
    bridge: new BridgeHost(channel.port1, control),
    control,
    ready,
    onError: () => undefined,
  };
  worker.on('error', (error) => started.onError(error));
  return started;
}
