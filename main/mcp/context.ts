import { InspectorError } from '../../shared/model/errors.js';
import { DEFAULT_LIMITS } from '../api/limits.js';
import type { RuntimeNode } from '../runtime/node.js';
import { prefetchApplications } from '../runtime/application-prefetch.js';
import { Runtime, type RuntimeOptions } from '../runtime/runtime.js';
import { TreeWarmer } from '../services/tree-warmer.js';
import { spawnXPathWorker } from '../xpath/worker-lane.js';
import { XPathService } from '../xpath/xpath-service.js';
import { RateLimiter } from './rate-limiter.js';
import { ShortIds } from './short-ids.js';

export interface McpLimits {
  /** Actions (ui_act) per second; past it an action is refused with `rate-limited` and `retryAfterMs`. */
  actionsPerSecond: number;
}

export const DEFAULT_ACTIONS_PER_SECOND = 20;

/** What the MCP server works on: the runtime and XPath service (as the CLI opens them), the short ids, the limits. */
export class McpContext {
  readonly ids = new ShortIds();
  readonly actions: RateLimiter;

  private constructor(
    readonly runtime: Runtime,
    readonly xpath: XPathService,
    limits: McpLimits,
    /** Settles once the applications' trees are asked for (they load on), or asking failed (see prefetchApplications). */
    readonly treesRequested: Promise<void>,
  ) {
    this.actions = new RateLimiter(limits.actionsPerSecond);
    // No locator capture in the background: it would hold the main thread while the agent's first query runs.
    this.warmer = new TreeWarmer(runtime, xpath, () => DEFAULT_LIMITS.evaluationTimeoutMs, {
      delayMs: 0,
      captureLocators: false,
    });
  }

  /** Loads the applications' trees while the agent connects, so its first query finds them loaded. */
  readonly warmer: TreeWarmer;

  static async open(options: RuntimeOptions, limits: McpLimits): Promise<McpContext> {
    // The XPath worker loads while the providers connect.
    const prestarted = spawnXPathWorker(DEFAULT_LIMITS.workerMemoryMb);
    let runtime: Runtime;
    try {
      runtime = await Runtime.create(options);
    } catch (error) {
      await prestarted.worker.terminate();
      throw error;
    }
    // The applications' trees start loading now, while the engine starts and the agent connects; the warm-up's
    // walk below then finds them loaded or loading.
    const { requested } = prefetchApplications(runtime, { kind: 'all' });
    const xpath = new XPathService(runtime, { workerMemoryMb: DEFAULT_LIMITS.workerMemoryMb, prestarted });
    // The server answers the agent's handshake at once; the engine and the tree load meanwhile (a failure to start
    // the engine is the first query's error).
    void xpath.warmUp().catch(() => undefined);
    const context = new McpContext(runtime, xpath, limits, requested);
    context.warmer.start();
    return context;
  }

  /** The live node an id names; invalid-input for an id never given, stale-node for a node that is gone. */
  node(id: string): RuntimeNode {
    const node = this.ids.node(id);
    if (!node) {
      throw new InspectorError('invalid-input', `no node has the id "${id}"; ids come from ui_tree and ui_query`, {
        path: 'id',
      });
    }
    if (node.isRemoved) {
      throw new InspectorError('stale-node', `node ${id} (${node.describe()}) no longer exists; read the tree again`, {
        runtimeId: node.runtimeId,
      });
    }
    return node;
  }

  async close(): Promise<void> {
    this.warmer.stop();
    await this.xpath.close();
    await this.runtime.shutdown();
  }
}
