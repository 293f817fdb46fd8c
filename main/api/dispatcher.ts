import type {
  EvaluationItem,
  InspectorEvent,
  MethodName,
  Params,
  Result,
  ServerMessage,
} from '../../shared/api/schema.js';
import { API_VERSION, parseRequest } from '../../shared/api/schema.js';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';
import type { Rect } from '../../shared/model/values.js';
import { ancestryOf } from '../services/ancestry.js';
import { boundsOf } from '../services/bounds.js';
import { exportNode, locatorsOf } from '../services/locate.js';
import { attributesOf, patternsOf, performPatternAction } from '../services/patterns.js';
import { snapshotXml } from '../services/snapshot-xml.js';
import { checkRequest } from '../services/check-request.js';
import type { XPathItem } from '../xpath/xpath-service.js';
import { sessionCapabilities } from './capabilities.js';
import type { InspectorSession } from './session.js';

type Handler<M extends MethodName> = (params: Params<M>) => Promise<Result<M>>;
type Handlers = { [M in MethodName]: Handler<M> };

/**
 * One connection's side of the API (like Playwright's dispatchers): validates every request, maps it to the session
 * (runtime, XPath service, highlight, picker), answers with a result or an error, and forwards events. Closing it
 * cancels its evaluations, stops its picking and clears its highlight.
 */
export class InspectorDispatcher {
  private readonly evaluations = new Map<string, AbortController>();
  private readonly unsubscribe: () => void;
  private closed = false;
  private readonly handlers: Handlers;

  constructor(
    private readonly session: InspectorSession,
    private readonly sendMessage: (message: ServerMessage) => void,
  ) {
    this.unsubscribe = session.subscribe((event) => this.sendEvent(event));
    this.handlers = this.createHandlers();
  }

  private send(message: ServerMessage): void {
    if (this.closed) return;
    try {
      this.sendMessage(message);
    } catch {
      // the transport is gone; close() follows
    }
  }

  sendEvent(event: InspectorEvent): void {
    this.send({ kind: 'event', event });
  }

  /** Handles one raw message (JSON text or a parsed object). Never throws and never rejects. */
  async handle(raw: unknown): Promise<void> {
    let id: number | null = null;
    try {
      const limits = this.session.limits;
      const parsed = parseRequest(raw, { maxBytes: limits.maxMessageBytes, maxDepth: limits.maxMessageDepth });
      id = parsed.id;
      if (!parsed.ok) {
        this.send({ kind: 'response', id: parsed.id, ok: false, error: parsed.error });
        return;
      }
      const handler = this.handlers[parsed.method] as (params: unknown) => Promise<unknown>;
      const result = await handler(parsed.params);
      this.send({ kind: 'response', id: parsed.id, ok: true, result });
    } catch (error) {
      this.send({ kind: 'response', id, ok: false, error: toInspectorError(error).toData() });
    }
  }

  private async item(item: XPathItem): Promise<EvaluationItem> {
    switch (item.type) {
      case 'node':
        return { type: 'node', node: this.session.summarize(item.node) };
      case 'attribute':
        return {
          type: 'attribute',
          owner: this.session.summarize(item.owner),
          namespace: item.namespace,
          name: item.name,
          value: item.value,
        };
      case 'value':
        return { type: 'value', value: item.value };
    }
  }

  private createHandlers(): Handlers {
    const session = this.session;
    const runtime = session.runtime;
    return {
      desktop: async () => {
        await session.structuralChildren(runtime.desktop).catch(() => undefined);
        const info = runtime.desktopInfo;
        return {
          node: session.summarize(runtime.desktop),
          technology: info.technology,
          osVersion: info.osVersion,
          bounds: info.bounds,
          monitors: info.monitors.map((monitor) => ({ ...monitor })),
        };
      },
      node: async ({ runtimeId }) => session.summarize(session.node(runtimeId)),
      children: async ({ runtimeId, offset, limit, refresh }) => {
        const node = session.node(runtimeId);
        const children = await session.structuralChildren(node, refresh);
        return {
          runtimeId,
          revision: node.revision,
          total: children.length,
          offset,
          nodes: children.slice(offset, offset + limit).map((child) => session.summarize(child)),
        };
      },
      ancestors: async ({ runtimeId }) => ({
        nodes: (await ancestryOf(runtime, session.node(runtimeId))).map((node) => session.summarize(node)),
      }),
      attributes: async ({ runtimeId, refresh }) => {
        const node = session.node(runtimeId);
        const attributes = await attributesOf(node, refresh);
        return { runtimeId, revision: node.revision, attributes };
      },
      patterns: async ({ runtimeId }) => {
        const node = session.node(runtimeId);
        return { runtimeId, revision: node.revision, patterns: await patternsOf(node) };
      },
      action: async ({ runtimeId, expectedRevision, action, args }) => {
        const node = session.node(runtimeId);
        await performPatternAction(node, expectedRevision, action, args);
        return { node: session.summarize(node) };
      },
      evaluate: async ({ id, xpath, contextRuntimeId, timeoutMs, maxResults, queue }) => {
        if (this.evaluations.has(id)) {
          throw new InspectorError('invalid-input', `an evaluation with id "${id}" is already running`);
        }
        if (!queue) for (const controller of this.evaluations.values()) controller.abort();
        const context = contextRuntimeId ? session.node(contextRuntimeId) : undefined;
        const limits = session.limits;
        const controller = new AbortController();
        this.evaluations.set(id, controller);
        try {
          const { stats } = await session.xpath.evaluate(xpath, {
            ...(context ? { context } : {}),
            timeoutMs: timeoutMs ?? limits.evaluationTimeoutMs,
            maxResults: Math.min(maxResults ?? limits.maxResults, limits.maxResults),
            owner: this,
            signal: controller.signal,
            onItems: (items) => {
              Promise.all(items.map((item) => this.item(item))).then(
                (converted) => {
                  if (!controller.signal.aborted) this.sendEvent({ type: 'evaluation.items', id, items: converted });
                },
                () => undefined, // a node that went away while it was summarized: the answer still counts it
              );
            },
          });
          return {
            id,
            count: stats.results,
            ms: Math.round(stats.evalMs * 1000) / 1000,
            engine: stats.engine,
            truncated: stats.truncated,
          };
        } finally {
          this.evaluations.delete(id);
        }
      },
      cancel: async ({ id }) => {
        const controller = this.evaluations.get(id);
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
      highlight: async ({ runtimeIds, rects, durationMs }) => {
        const all: Rect[] = [...(rects ?? [])];
        for (const runtimeId of runtimeIds ?? []) {
          const bounds = await boundsOf(session.node(runtimeId));
          if (bounds && bounds.width > 0 && bounds.height > 0) all.push(bounds);
        }
        const shown = await session.highlight(this, all, durationMs);
        return { rects: all, shown };
      },
      'highlight.clear': async () => ({ cleared: await session.clearHighlight() }),
      'pick.start': async ({ intervalMs }) => ({
        started: true,
        ...(await session.startPicking(this, (event) => this.sendEvent(event), intervalMs)),
      }),
      'pick.select': async () => {
        const node = session.activePicker().select();
        return { node: node ? session.summarize(node) : null };
      },
      'pick.cycle': async ({ delta }) => ({ depth: session.activePicker().cycle(delta) }),
      'pick.stop': async () => {
        const picker = session.picker;
        picker?.stop('stopped');
        return { stopped: picker !== undefined };
      },
      locate: async ({ runtimeId, limit }) => ({
        runtimeId,
        locators: await locatorsOf(runtime, session.xpath, session.node(runtimeId), limit),
      }),
      export: async ({ runtimeId, format, action }) => ({
        format,
        ...(await exportNode(runtime, session.xpath, session.node(runtimeId), format, action)),
      }),
      check: async (params) =>
        checkRequest(runtime, session.xpath, params.runtimeId ? session.node(params.runtimeId) : undefined, params),
      snapshot: async ({ runtimeId, maxDepth, attrs }) =>
        snapshotXml(runtime, runtimeId ? session.node(runtimeId) : runtime.desktop, { attrs, maxDepth }),
      'settings.get': async () => ({ settings: session.getSettings() }),
      'settings.set': async ({ values }) => session.setSettings(values),
      status: async () => ({
        apiVersion: API_VERSION,
        platform: runtime.platform?.id ?? 'none',
        unavailable: [...(runtime.platform?.unavailable ?? [])].map((entry) => ({ ...entry })),
        providers: session.providerStatus(),
        nodesFetched: runtime.nodesFetched,
        accessibility: await session.accessibility(false),
        capabilities: sessionCapabilities(session),
      }),
      'accessibility.status': async () => session.accessibility(false),
      'host.stop': async () => {
        if (!session.hostStop) throw new InspectorError('unsupported', 'this host cannot be stopped from its page');
        session.hostStop();
        return { stopping: true };
      },
      'accessibility.enable': async () => {
        const status = await session.accessibility(true);
        this.session.emit({ type: 'provider.status', providers: session.providerStatus() });
        return status;
      },
    };
  }

  /** Cancels this connection's evaluations, stops its picking, clears its highlight. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const controller of this.evaluations.values()) controller.abort();
    this.evaluations.clear();
    if (this.session.picker?.belongsTo(this)) this.session.picker.stop('the connection closed');
    this.closed = true;
    this.unsubscribe();
    await this.session.clearHighlight(this);
  }
}
