import { MessageChannel, Worker } from 'node:worker_threads';
import { attributeValueOf } from '../../shared/model/attributes.js';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';
import { applicationsReached } from '../../shared/xpath/fast/reach.js';
import { uiBool, uiInteger, uiNumber, uiString } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime, NodeInvalidation } from '../runtime/runtime.js';
import { BridgeHost } from './bridge-host.js';
import {
  CANCEL,
  type EvaluateRequest,
  type NodeChange,
  type WorkerMessage,
  type WorkerOtherItem,
  type WorkerResults,
} from './protocol.js';
import { XPathResults } from './xpath-results.js';
import type { XPathItem, EvaluationStats } from './xpath-service.js';

/** How long a cancelled worker may take to stop before it is terminated. */
const CANCEL_GRACE_MS = 80;
/** More changed nodes than this between two queries: the worker builds its mirror anew instead. */
const MAX_CHANGES = 2_000;

export interface LaneJob {
  xpath: string;
  context?: RuntimeNode;
  maxResults?: number;
  onItems?: (items: XPathItem[]) => void;
}

export interface LaneOptions {
  /** The worker's old-generation heap (resourceLimits.maxOldGenerationSizeMb); undefined: Node's default. */
  workerMemoryMb?: number;
  /** A worker spawned before the runtime existed (spawnXPathWorker), used as the lane's first worker. */
  prestarted?: SpawnedXPathWorker;
}

/** An XPath worker with its bridge, not yet owned by a lane. */
export interface SpawnedXPathWorker {
  readonly worker: Worker;
  readonly bridge: BridgeHost;
  readonly control: Int32Array;
  readonly workerMemoryMb: number | undefined;
  /** Whether the worker has said it loaded its engines (it says so once, possibly before a lane listens). */
  readySeen: boolean;
}

/**
 * Starts an XPath worker; it does not keep the process alive on its own. The CLI spawns one before it connects the
 * providers, so the worker loads while they connect.
 */
export function spawnXPathWorker(workerMemoryMb?: number): SpawnedXPathWorker {
  const control = new Int32Array(new SharedArrayBuffer(8));
  const channel = new MessageChannel();
  const worker = new Worker(new URL('./worker/xpath-worker.js', import.meta.url), {
    workerData: { port: channel.port2, control: control.buffer },
    transferList: [channel.port2],
    ...(workerMemoryMb ? { resourceLimits: { maxOldGenerationSizeMb: workerMemoryMb } } : {}),
  });
  worker.unref();
  channel.port1.unref();
  const spawned: SpawnedXPathWorker = {
    worker,
    bridge: new BridgeHost(channel.port1, control),
    control,
    workerMemoryMb,
    readySeen: false,
  };
  const onReady = (message: WorkerMessage) => {
    if (message.type !== 'ready') return;
    spawned.readySeen = true;
    worker.off('message', onReady);
  };
  worker.on('message', onReady);
  // Until a lane owns it, a failing worker only ends itself; the lane that adopts it sees it gone.
  worker.on('error', () => undefined);
  return spawned;
}

interface Outcome {
  results: XPathResults;
  engine: string;
  indexed: boolean;
  bridgeNodes: number;
  truncated: boolean;
}

interface Pending {
  id: number;
  resolve: (value: Outcome) => void;
  reject: (error: InspectorError) => void;
  /** Why the caller stopped the evaluation (cancel or timeout); reported instead of the worker's own words. */
  stopReason?: InspectorError;
}

/** Results handed to `onItems` as they are read: a small first batch, then growing ones (few, for 100,000 items). */
const FIRST_BATCH = 256;
const MAX_BATCH = 16_384;

/**
 * One XPath worker with its mirror of the tree (see protocol.ts for the design), evaluating one query at a time.
 * A worker that dies (out of memory, terminated after a cancel) is replaced by the next query.
 */
export class WorkerLane {
  private worker: Worker | undefined;
  private bridge: BridgeHost | undefined;
  private control: Int32Array | undefined;
  private nextId = 1;
  private pending: Pending | undefined;
  private whenReady: Promise<void> | undefined;
  private readyResolve: (() => void) | undefined;
  /** The tree generation the worker's mirror was built from. */
  private workerGeneration: number | undefined;
  /**
   * What changed since the worker's generation, node by node (true: its list too); undefined when a change was not
   * detailed (TreeInvalidated, invalidateAll) or there were too many: then the worker builds its mirror anew.
   */
  private changed: Map<RuntimeNode, boolean> | undefined = new Map();
  /** The job running now, with the function that stops it. */
  private stopCurrent: ((reason: InspectorError) => void) | undefined;

  private prestarted: SpawnedXPathWorker | undefined;

  constructor(
    private readonly runtime: Runtime,
    private readonly options: LaneOptions = {},
  ) {
    this.prestarted = options.prestarted;
  }

  private closed = false;
  private warm = false;

  get busy(): boolean {
    return this.stopCurrent !== undefined;
  }

  /** Its worker has loaded its engines (a replaced worker is started at once, so this is rarely false for long). */
  get ready(): boolean {
    return this.warm;
  }

  /** A worker that died or was terminated is replaced at once, so the next query does not wait for its start-up. */
  private replace(): void {
    this.reset();
    if (!this.closed) this.start();
  }

  onTreeChanges(changes: readonly NodeInvalidation[] | 'all'): void {
    const changed = this.changed;
    if (!changed) return;
    if (changes === 'all' || changed.size + changes.length > MAX_CHANGES) {
      this.changed = undefined;
      return;
    }
    for (const { node, children } of changes) changed.set(node, children || changed.get(node) === true);
  }

  rebuildMirror(): void {
    this.changed = undefined;
  }

  private start(): { worker: Worker; bridge: BridgeHost; control: Int32Array } {
    if (this.worker && this.bridge && this.control)
      return { worker: this.worker, bridge: this.bridge, control: this.control };
    const memory = this.options.workerMemoryMb;
    const prestarted = this.prestarted?.workerMemoryMb === memory ? this.prestarted : undefined;
    const spawned = prestarted ?? spawnXPathWorker(memory);
    if (this.prestarted && !prestarted) void this.prestarted.worker.terminate();
    this.prestarted = undefined;
    const { worker, bridge, control } = spawned;
    worker.on('message', (message: WorkerMessage) => this.onMessage(message));
    worker.on('error', (error: Error & { code?: string }) => {
      if (this.worker !== worker) return; // a worker already replaced (terminated after a cancel)
      this.replace();
      this.failPending(
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new InspectorError(
              'limit-exceeded',
              `the evaluation needed more than the XPath worker's ${memory ?? 'default'} MB of memory ` +
                '(limits.workerMemoryMb); it was stopped and the worker restarted',
            )
          : new InspectorError('internal', `XPath worker failed: ${error.message}`),
      );
    });
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.replace();
      this.failPending(new InspectorError('internal', 'the XPath worker stopped unexpectedly; it is restarted'));
    });
    this.worker = worker;
    this.bridge = bridge;
    this.control = control;
    this.warm = spawned.readySeen;
    this.whenReady = spawned.readySeen
      ? Promise.resolve()
      : new Promise<void>((resolve) => (this.readyResolve = resolve));
    return { worker, bridge, control };
  }

  /** Starts the worker and waits until its engines are loaded, so the first evaluation measures only itself. */
  async warmUp(): Promise<void> {
    const { worker } = this.start();
    worker.ref();
    await this.whenReady;
    worker.unref();
  }

  private reset(): void {
    this.workerGeneration = undefined;
    this.changed = undefined;
    this.readyResolve?.();
    this.whenReady = undefined;
    this.warm = false;
    this.worker = undefined;
    this.bridge = undefined;
    this.control = undefined;
  }

  private failPending(error: InspectorError): void {
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(pending.stopReason ?? error);
  }

  /** An attribute or value the worker sent as a result; an attribute takes its typed value from the runtime. */
  private async convert(item: WorkerOtherItem, bridge: BridgeHost): Promise<XPathItem> {
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
    const owner = bridge.nodeOf(item.h);
    if (!owner) throw new InspectorError('internal', `the XPath worker answered an unknown node handle ${item.h}`);
    const value = attributeValueOf(await owner.attributesNamed(item.name), item.ns, item.text);
    return { type: 'attribute', owner, namespace: item.ns, name: item.name, value };
  }

  /** The worker's results, the attributes among them with their typed values. */
  private async results({ items, others }: WorkerResults, bridge: BridgeHost): Promise<XPathResults> {
    const converted = await Promise.all(others.map((item) => this.convert(item, bridge)));
    return new XPathResults(items, converted, (handle) => bridge.nodeOf(handle));
  }

  private onMessage(message: WorkerMessage): void {
    if (message.type === 'ready') {
      this.warm = true;
      this.readyResolve?.();
      return;
    }
    const pending = this.pending;
    if (!pending || message.id !== pending.id || !this.bridge) return;
    this.pending = undefined;
    if (message.type === 'done') {
      const { engine, indexed, bridgeNodes } = message;
      const truncated = message.truncated === true;
      this.results(message.results, this.bridge).then(
        (results) => pending.resolve({ results, engine, indexed, bridgeNodes, truncated }),
        (error: unknown) => pending.reject(toInspectorError(error)),
      );
    } else {
      const error = InspectorError.fromData(message.error);
      pending.reject(error.code === 'cancelled' && pending.stopReason ? pending.stopReason : error);
    }
  }

  /** Stops the running job (cancel or timeout); the reason is what its caller gets. */
  stop(reason: InspectorError): void {
    this.stopCurrent?.(reason);
  }

  async run(job: LaneJob): Promise<{ results: XPathResults; stats: EvaluationStats }> {
    let stopRequested: InspectorError | undefined;
    this.stopCurrent = (reason) => (stopRequested ??= reason);
    let graceTimer: NodeJS.Timeout | undefined;
    try {
      this.runtime.refreshIfBlind();
      const { worker, bridge, control } = this.start();
      Atomics.store(control, CANCEL, 0);
      const fetchedBefore = this.runtime.nodesFetched;
      const started = performance.now();
      const id = this.nextId++;
      const context = job.context ?? this.runtime.desktop;
      // What changed since the worker's generation is taken now; changes reported while ids load go to the next query.
      const generation = this.runtime.generation;
      const since = this.workerGeneration;
      const changed = this.changed;
      this.changed = new Map();
      const sendRoot = since === undefined || (since !== generation && !changed);
      const changedNodes = sendRoot || since === generation ? [] : this.knownNodes(changed!, bridge);
      // A query that stays on the desktop's children gets them alone: the applications' held trees below would cost
      // this thread a record per node the query never reads (the worker asks for whatever it does read).
      const childrenOnly =
        sendRoot && context === this.runtime.desktop && applicationsReached(job.xpath).kind === 'none';
      if (sendRoot) await bridge.loadIds([this.runtime.desktop], undefined, childrenOnly);
      else await Promise.all(changedNodes.map(([node]) => node.loadId()));
      if (stopRequested) {
        this.workerGeneration = undefined;
        throw stopRequested;
      }
      if (this.worker !== worker) {
        throw new InspectorError('internal', 'the XPath worker stopped while the query was prepared; try again');
      }
      const request: EvaluateRequest = {
        type: 'evaluate',
        id,
        xpath: job.xpath,
        context: bridge.handleOf(context),
        generation,
        ...(job.maxResults !== undefined ? { maxResults: job.maxResults } : {}),
        ...(sendRoot
          ? {
              root: bridge.block([this.runtime.desktop], undefined, childrenOnly),
              applicationsOnlyAtTop: this.runtime.applicationsOnlyAtTop,
            }
          : {}),
        ...(!sendRoot && since !== generation
          ? { changes: { since: since!, nodes: this.describe(changedNodes, bridge) } }
          : {}),
      };
      this.workerGeneration = generation;
      const pending: Pending = { id, resolve: () => undefined, reject: () => undefined };
      const outcome = new Promise<Outcome>((resolve, reject) => {
        pending.resolve = resolve;
        pending.reject = reject;
      });
      this.stopCurrent = (reason: InspectorError) => {
        if (pending.stopReason) return;
        pending.stopReason = reason;
        Atomics.store(control, CANCEL, 1);
        graceTimer = setTimeout(() => {
          if (this.pending !== pending) return;
          void worker.terminate();
          this.replace();
          this.failPending(reason);
        }, CANCEL_GRACE_MS);
      };
      this.pending = pending;
      worker.ref();
      try {
        worker.postMessage(request);
        const { results, engine, indexed, bridgeNodes, truncated } = await outcome;
        if (job.onItems) handInBatches(results, job.onItems);
        return {
          results,
          stats: {
            evalMs: performance.now() - started,
            nodesFetched: this.runtime.nodesFetched - fetchedBefore,
            results: results.length,
            engine,
            indexed,
            bridgeNodes,
            truncated,
          },
        };
      } finally {
        worker.unref();
      }
    } finally {
      this.stopCurrent = undefined;
      if (graceTimer) clearTimeout(graceTimer);
    }
  }

  /** The changed nodes the worker may hold (those it was sent a handle for). */
  private knownNodes(changed: Map<RuntimeNode, boolean>, bridge: BridgeHost): Array<[RuntimeNode, boolean]> {
    return [...changed].filter(([node]) => bridge.knownHandle(node) !== undefined);
  }

  private describe(nodes: ReadonlyArray<[RuntimeNode, boolean]>, bridge: BridgeHost): NodeChange[] {
    return nodes.map(([node, children]) => ({ record: bridge.shallowRecord(node), children }));
  }

  async close(reason: InspectorError): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    this.reset();
    this.failPending(reason);
    const unused = this.prestarted?.worker;
    this.prestarted = undefined;
    // The workers are unref'd; one being waited for must hold the event loop, or a process with nothing else to do
    // ends (or a test runner reports the test cancelled) while its close is still pending.
    worker?.ref();
    unused?.ref();
    await Promise.all([worker?.terminate(), unused?.terminate()]);
  }
}

/** Hands the results to `onItems` in batches, in order. */
function handInBatches(results: XPathResults, onItems: (items: XPathItem[]) => void): void {
  let size = FIRST_BATCH;
  for (let start = 0; start < results.length; start += size, size = Math.min(size * 2, MAX_BATCH))
    onItems(results.slice(start, start + size));
}
