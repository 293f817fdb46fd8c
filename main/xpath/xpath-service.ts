import { InspectorError } from '../../shared/model/errors.js';
import type { Namespace } from '../../shared/model/namespaces.js';
import type { UiValue } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { Runtime } from '../runtime/runtime.js';
import { WorkerLane, type SpawnedXPathWorker } from './worker-lane.js';
import type { XPathResults } from './xpath-results.js';

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
  /** The result cap stopped the evaluation: `results` came, there were more. */
  truncated: boolean;
}

export interface EvaluateOptions {
  context?: RuntimeNode;
  /** Counted from `requestedAt`, time spent waiting for a worker included. */
  timeoutMs?: number;
  /** When the request was made (performance.now()), if before this call; the timeout counts from it. */
  requestedAt?: number;
  signal?: AbortSignal;
  /** At most this many results; `stats.truncated` says whether there were more. */
  maxResults?: number;
  /**
   * Whose evaluation this is (a connection): one owner runs one evaluation at a time, and owners take turns for the
   * workers, so one owner's long query never holds up another's. Evaluations without an owner share one.
   */
  owner?: object;
  /** Receives results as they stream in, before the evaluation finishes. */
  onItems?: (items: XPathItem[]) => void;
}

export interface XPathServiceOptions {
  /** Workers evaluating at once (each with its own copy of the tree); default 1. */
  workers?: number;
  /** Each worker's old-generation heap in MB; a query that needs more fails with `limit-exceeded`. */
  workerMemoryMb?: number;
  /** A worker spawned before the runtime (spawnXPathWorker) with the same memory limit: the first lane's worker. */
  prestarted?: SpawnedXPathWorker;
}

type Outcome = { results: XPathResults; stats: EvaluationStats };

interface Job {
  xpath: string;
  options: EvaluateOptions;
  owner: object;
  resolve: (value: Outcome) => void;
  reject: (error: unknown) => void;
  /** Set once a lane runs it. */
  lane?: WorkerLane;
  /** Why it ended before it finished (timeout, cancel), when it did. */
  stopped?: InspectorError;
  cleanup: () => void;
}

const SHARED_OWNER = {};

/**
 * Evaluates XPath off the thread that serves the UI and the providers (see protocol.ts for the design) on a small
 * pool of workers: every evaluation can be cancelled and times out, counted from the request.
 */
export class XPathService {
  private readonly lanes: WorkerLane[];
  /** Evaluations waiting for a worker, per owner, in the order of their requests. */
  private readonly waiting = new Map<object, Job[]>();
  /** Owners with a running evaluation. */
  private readonly running = new Set<object>();
  private closed = false;
  private readonly unwatch: () => void;

  constructor(
    private readonly runtime: Runtime,
    options: XPathServiceOptions = {},
  ) {
    const count = Math.max(1, Math.floor(options.workers ?? 1));
    const laneOptions = options.workerMemoryMb ? { workerMemoryMb: options.workerMemoryMb } : {};
    this.lanes = Array.from(
      { length: count },
      (_, i) =>
        new WorkerLane(
          runtime,
          i === 0 && options.prestarted ? { ...laneOptions, prestarted: options.prestarted } : laneOptions,
        ),
    );
    this.unwatch = runtime.watchTree((changes) => {
      for (const lane of this.lanes) lane.onTreeChanges(changes);
    });
  }

  /** The next query makes the workers build their mirrors anew, as they did on every change before (for measurements). */
  rebuildMirror(): void {
    for (const lane of this.lanes) lane.rebuildMirror();
  }

  /** Starts the workers and waits until their engines are loaded, so the first evaluation measures only itself. */
  async warmUp(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.warmUp()));
  }

  /** Evaluates `xpath` with every result made an item (see evaluateResults for results read in part). */
  async evaluate(
    xpath: string,
    options: EvaluateOptions = {},
  ): Promise<{ items: XPathItem[]; stats: EvaluationStats }> {
    const { results, stats } = await this.evaluateResults(xpath, options);
    return { items: results.slice(), stats };
  }

  /** Evaluates `xpath`; its results are made items only as they are read (XPathResults). */
  evaluateResults(xpath: string, options: EvaluateOptions = {}): Promise<Outcome> {
    if (this.closed) return Promise.reject(new InspectorError('cancelled', 'the XPath service was closed'));
    if (options.signal?.aborted) {
      return Promise.reject(new InspectorError('cancelled', 'the evaluation was cancelled before it started'));
    }
    const requested = options.requestedAt ?? performance.now();
    return new Promise<Outcome>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const job: Job = {
        xpath,
        options,
        owner: options.owner ?? SHARED_OWNER,
        resolve,
        reject,
        cleanup: () => {
          if (timer) clearTimeout(timer);
          options.signal?.removeEventListener('abort', abort);
        },
      };
      const end = (reason: InspectorError) => {
        if (job.stopped) return;
        job.stopped = reason;
        if (job.lane) job.lane.stop(reason);
        else {
          this.dequeue(job);
          job.cleanup();
          reject(reason);
        }
      };
      const abort = () => end(new InspectorError('cancelled', 'the evaluation was cancelled'));
      options.signal?.addEventListener('abort', abort, { once: true });
      if (options.timeoutMs !== undefined) {
        const limit = options.timeoutMs;
        timer = setTimeout(
          () => {
            const waited = job.lane ? '' : ` (it waited ${Math.round(performance.now() - requested)} ms for a worker)`;
            end(new InspectorError('timeout', `the evaluation did not finish within ${limit} ms${waited}`));
          },
          Math.max(0, limit - (performance.now() - requested)),
        );
      }
      const queue = this.waiting.get(job.owner) ?? [];
      queue.push(job);
      this.waiting.set(job.owner, queue);
      this.dispatch();
    });
  }

  private dequeue(job: Job): void {
    const queue = this.waiting.get(job.owner);
    if (!queue) return;
    const at = queue.indexOf(job);
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) this.waiting.delete(job.owner);
  }

  /**
   * Gives free workers to waiting owners that run nothing, in turn (the owner that waited longest first: Map order
   * is the order owners started waiting, and an owner served goes to the back). The first free worker is preferred,
   * so a single user's queries keep finding the same worker's indexed copy of the tree.
   */
  private dispatch(): void {
    // a free worker with its engines loaded first (one just replaced after a cancel may still be starting)
    const free = this.lanes.filter((lane) => !lane.busy);
    for (const lane of [...free.filter((lane) => lane.ready), ...free.filter((lane) => !lane.ready)]) {
      if (this.closed) return;
      const owner = [...this.waiting.keys()].find((candidate) => !this.running.has(candidate));
      if (owner === undefined) return;
      const queue = this.waiting.get(owner)!;
      const job = queue.shift()!;
      this.waiting.delete(owner);
      if (queue.length > 0) this.waiting.set(owner, queue);
      this.start(lane, job);
    }
  }

  private start(lane: WorkerLane, job: Job): void {
    job.lane = lane;
    this.running.add(job.owner);
    const { context, maxResults, onItems } = job.options;
    lane
      .run({
        xpath: job.xpath,
        ...(context ? { context } : {}),
        ...(maxResults !== undefined ? { maxResults } : {}),
        ...(onItems ? { onItems } : {}),
      })
      .then(
        (outcome) => job.resolve(outcome),
        (error: unknown) => job.reject(job.stopped ?? error),
      )
      .finally(() => {
        job.cleanup();
        this.running.delete(job.owner);
        this.dispatch();
      });
    // A stop that came while the lane was being handed the job.
    if (job.stopped) lane.stop(job.stopped);
  }

  async close(): Promise<void> {
    this.unwatch();
    this.closed = true;
    const reason = new InspectorError('cancelled', 'the XPath service was closed');
    for (const queue of this.waiting.values()) {
      for (const job of queue) {
        job.cleanup();
        job.reject(reason);
      }
    }
    this.waiting.clear();
    await Promise.all(this.lanes.map((lane) => lane.close(reason)));
  }
}
