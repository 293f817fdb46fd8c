import type { EvaluationItem, InspectorEvent, Params, Result } from '../../shared/api/schema.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { XPathResults } from '../xpath/xpath-results.js';
import type { XPathItem, XPathService } from '../xpath/xpath-service.js';
import { KeptResults } from './kept-results.js';
import type { TreeView } from './tree-view.js';

/** A view XPath runs against: the tree, its XPath service, the limits in force and the background warm-up. */
export interface EvaluationView extends TreeView {
  readonly xpath: XPathService;
  readonly limits: { readonly evaluationTimeoutMs: number; readonly maxResults: number };
  /** Loads the tree in the background (interactive hosts); an evaluation waits for it, within its timeout. */
  readonly warmer: { treeLoaded(): Promise<void> } | undefined;
}

/** An XPath result as the protocol sends it: nodes and attribute owners summarized. */
export function evaluationItem(view: TreeView, item: XPathItem): EvaluationItem {
  switch (item.type) {
    case 'node':
      return { type: 'node', node: view.summarize(item.node) };
    case 'attribute':
      return {
        type: 'attribute',
        owner: view.summarize(item.owner),
        namespace: item.namespace,
        name: item.name,
        value: item.value,
      };
    case 'value':
      return { type: 'value', value: item.value };
  }
}

function page(view: TreeView, results: XPathResults, offset: number, limit: number): EvaluationItem[] {
  return results.slice(offset, offset + limit).map((item) => evaluationItem(view, item));
}

/**
 * One connection's evaluations on one view: those running (cancelled by id, or all at once), and the results of
 * its last paged ones (KeptResults, for `evaluation.page` and highlighting them all). Unpaged evaluations stream
 * their items as `evaluation.items` events.
 */
export class Evaluations {
  private readonly running = new Map<string, AbortController>();
  private readonly kept = new KeptResults();

  constructor(
    private readonly view: EvaluationView,
    private readonly sendEvent: (event: InspectorEvent) => void,
  ) {}

  async evaluate({
    id,
    xpath,
    contextRuntimeId,
    timeoutMs,
    maxResults,
    queue,
    pageSize,
  }: Params<'evaluate'>): Promise<Result<'evaluate'>> {
    const view = this.view;
    if (this.running.has(id)) {
      throw new InspectorError('invalid-input', `an evaluation with id "${id}" is already running`);
    }
    if (!queue) this.cancelAll();
    const context = contextRuntimeId ? view.node(contextRuntimeId) : undefined;
    const limits = view.limits;
    const controller = new AbortController();
    this.running.set(id, controller);
    this.kept.forget(id);
    const requested = performance.now();
    try {
      await view.warmer?.treeLoaded();
      if (controller.signal.aborted) throw new InspectorError('cancelled', 'the evaluation was cancelled');
      // The timeout counts from the request: the wait for the warm-up is part of it.
      const limit = timeoutMs ?? limits.evaluationTimeoutMs;
      if (performance.now() - requested >= limit)
        throw new InspectorError('timeout', `the evaluation did not finish within ${limit} ms (the tree was loading)`);
      const { results, stats } = await view.xpath.evaluateResults(xpath, {
        ...(context ? { context } : {}),
        timeoutMs: limit,
        requestedAt: requested,
        maxResults: Math.min(maxResults ?? limits.maxResults, limits.maxResults),
        owner: this,
        signal: controller.signal,
        ...(pageSize === undefined
          ? {
              onItems: (batch: XPathItem[]) => {
                let converted: EvaluationItem[];
                try {
                  converted = batch.map((item) => evaluationItem(view, item));
                } catch {
                  return; // a node that went away while it was summarized: the answer still counts it
                }
                if (!controller.signal.aborted) this.sendEvent({ type: 'evaluation.items', id, items: converted });
              },
            }
          : {}),
      });
      const summary = {
        id,
        count: stats.results,
        ms: Math.round(stats.evalMs * 1000) / 1000,
        engine: stats.engine,
        truncated: stats.truncated,
      };
      if (pageSize === undefined) return summary;
      this.kept.keep(id, results);
      return { ...summary, items: page(view, results, 0, pageSize) };
    } finally {
      this.running.delete(id);
    }
  }

  /** Results of a kept paged evaluation from `offset`. */
  async page({ id, offset, limit }: Params<'evaluation.page'>): Promise<Result<'evaluation.page'>> {
    const results = this.kept.get(id);
    return { id, offset, count: results.length, items: page(this.view, results, offset, limit) };
  }

  async cancel({ id }: Params<'cancel'>): Promise<Result<'cancel'>> {
    const controller = this.running.get(id);
    controller?.abort();
    return { cancelled: controller !== undefined };
  }

  /** The kept results of a paged evaluation; none without an id. */
  results(id: string | undefined): Iterable<XPathItem> {
    return id === undefined ? [] : this.kept.get(id);
  }

  cancelAll(): void {
    for (const controller of this.running.values()) controller.abort();
  }

  /** Cancels everything running and forgets every kept result. */
  close(): void {
    this.cancelAll();
    this.running.clear();
    this.kept.clear();
  }
}
