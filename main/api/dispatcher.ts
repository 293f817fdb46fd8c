import type {
  EvaluationItem,
  InspectorEvent,
  MethodName,
  Params,
  Result,
  ServerMessage,
} from '../../shared/api/schema.js';
import { API_VERSION, MAX_HIGHLIGHT_NODES, parseRequest } from '../../shared/api/schema.js';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';
import type { Rect } from '../../shared/model/values.js';
import { ancestryOf } from '../services/ancestry.js';
import { boundsOf } from '../services/bounds.js';
import { exportNode, locatorsOf } from '../services/locate.js';
import { attributesOf, patternsOf, performPatternAction } from '../services/patterns.js';
import { nameCatalog } from '../services/name-catalog.js';
import { diffSnapshotTexts } from '../services/snapshot-diff.js';
import { snapshotXml } from '../services/snapshot-xml.js';
import { checkRequest } from '../services/check-request.js';
import { captureScreen, elementsAt } from '../services/screen.js';
import { clickAt, scrollAt, typeKeys } from '../services/screen-input.js';
import { subtreeLists } from '../services/subtree.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { XPathItem } from '../xpath/xpath-service.js';
import { KeptResults } from './kept-results.js';
import { sessionCapabilities } from './capabilities.js';
import { EventStream } from './event-stream.js';
import type { InspectorSession } from './session.js';
import { packageVersion } from '../services/package-info.js';

/** The nodes of an opened snapshot (what the answer to `snapshot.open` reports). */
async function countNodes(session: InspectorSession): Promise<number> {
  let count = 0;
  const pending = [session.runtime.desktop];
  while (pending.length) {
    const node = pending.pop()!;
    count++;
    pending.push(...(await session.structuralChildren(node)));
  }
  return count - 1;
}

/** A comparison lists at most this many nodes to a page (the counts stay whole). */
const SNAPSHOT_DIFF_ENTRIES = 5000;

type Handler<M extends MethodName> = (params: Params<M>) => Promise<Result<M>>;
type Handlers = { [M in MethodName]: Handler<M> };

/**
 * One connection's side of the API (like Playwright's dispatchers): validates every request, maps it to the session
 * (runtime, XPath service, highlight, picker), answers with a result or an error, and forwards events. Closing it
 * cancels its evaluations, stops its picking and clears its highlight.
 */
export class InspectorDispatcher {
  private readonly evaluations = new Map<string, AbortController>();
  /** Results of this connection's last paged evaluations (for `evaluation.page` and highlighting them all). */
  private readonly kept = new KeptResults();
  private unsubscribe: () => void;
  private closed = false;
  private handlers: Handlers;
  /** The session this connection looks at: the live one, or a snapshot it opened (read-only, offline). */
  private session: InspectorSession;
  private snapshot: InspectorSession | undefined;
  /** The connection's event subscription (`events.subscribe`), on the session it looks at. */
  private events: EventStream | undefined;
  /** Snapshot sessions still shutting down (their XPath worker can take seconds to stop on a busy machine). */
  private readonly closing = new Set<Promise<void>>();

  constructor(
    private readonly live: InspectorSession,
    private readonly sendMessage: (message: ServerMessage) => void,
  ) {
    this.session = live;
    this.unsubscribe = live.subscribe((event) => this.sendEvent(event));
    this.handlers = this.createHandlers();
  }

  /** Looks at `session` from now on: its tree, its events; evaluations of the one before are cancelled. */
  private view(session: InspectorSession): void {
    for (const controller of this.evaluations.values()) controller.abort();
    this.kept.clear();
    this.stopEvents();
    this.unsubscribe();
    this.session = session;
    this.unsubscribe = session.subscribe((event) => this.sendEvent(event));
    this.handlers = this.createHandlers();
  }

  /** Back to the live session at once; the snapshot's session shuts down behind (close() waits for it). */
  private closeSnapshot(): boolean {
    const snapshot = this.snapshot;
    if (!snapshot) return false;
    this.snapshot = undefined;
    if (this.session === snapshot) this.view(this.live);
    const closing: Promise<void> = snapshot
      .close()
      .catch((error: unknown) => {
        process.stderr.write(`platynui-inspector: closing a snapshot failed: ${toInspectorError(error).message}\n`);
      })
      .finally(() => this.closing.delete(closing));
    this.closing.add(closing);
    return true;
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

  private page(items: readonly XPathItem[], offset: number, limit: number): Promise<EvaluationItem[]> {
    return Promise.all(items.slice(offset, offset + limit).map((item) => this.item(item)));
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
      subtree: async ({ runtimeId, maxNodes }) => {
        const found = await subtreeLists(session.node(runtimeId), (node) => session.structuralChildren(node), maxNodes);
        return {
          runtimeId,
          nodes: found.nodes,
          truncated: found.truncated,
          lists: found.lists.map(({ parent, children }) => ({
            parentRuntimeId: parent.runtimeId,
            nodes: children.map((child) => session.summarize(child)),
          })),
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
        if (session.snapshotName)
          throw new InspectorError('unsupported', `${session.snapshotName} is a snapshot: it is read-only`);
        const node = session.node(runtimeId);
        await performPatternAction(node, expectedRevision, action, args);
        return { node: session.summarize(node) };
      },
      evaluate: async ({ id, xpath, contextRuntimeId, timeoutMs, maxResults, queue, pageSize }) => {
        if (this.evaluations.has(id)) {
          throw new InspectorError('invalid-input', `an evaluation with id "${id}" is already running`);
        }
        if (!queue) for (const controller of this.evaluations.values()) controller.abort();
        const context = contextRuntimeId ? session.node(contextRuntimeId) : undefined;
        const limits = session.limits;
        const controller = new AbortController();
        this.evaluations.set(id, controller);
        this.kept.forget(id);
        const requested = performance.now();
        try {
          await session.warmer?.treeLoaded();
          if (controller.signal.aborted) throw new InspectorError('cancelled', 'the evaluation was cancelled');
          // The timeout counts from the request: the wait for the warm-up is part of it.
          const limit = (timeoutMs ?? limits.evaluationTimeoutMs) - (performance.now() - requested);
          if (limit <= 0)
            throw new InspectorError('timeout', 'the evaluation did not finish in time (the tree was loading)');
          const { items, stats } = await session.xpath.evaluate(xpath, {
            ...(context ? { context } : {}),
            timeoutMs: Math.ceil(limit),
            maxResults: Math.min(maxResults ?? limits.maxResults, limits.maxResults),
            owner: this,
            signal: controller.signal,
            ...(pageSize === undefined
              ? {
                  onItems: (batch: XPathItem[]) => {
                    Promise.all(batch.map((item) => this.item(item))).then(
                      (converted) => {
                        if (!controller.signal.aborted)
                          this.sendEvent({ type: 'evaluation.items', id, items: converted });
                      },
                      () => undefined, // a node that went away while it was summarized: the answer still counts it
                    );
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
          this.kept.keep(id, items);
          return { ...summary, items: await this.page(items, 0, pageSize) };
        } finally {
          this.evaluations.delete(id);
        }
      },
      'evaluation.page': async ({ id, offset, limit }) => {
        const items = this.kept.get(id);
        return { id, offset, count: items.length, items: await this.page(items, offset, limit) };
      },
      cancel: async ({ id }) => {
        const controller = this.evaluations.get(id);
        controller?.abort();
        return { cancelled: controller !== undefined };
      },
      highlight: async ({ runtimeIds, evaluationId, rects, durationMs }) => {
        const all: Rect[] = [...(rects ?? [])];
        const named = await Promise.all((runtimeIds ?? []).map((runtimeId) => boundsOf(session.node(runtimeId))));
        // A result that went away since the evaluation is left out, not an error.
        const results = evaluationId === undefined ? [] : this.kept.get(evaluationId);
        const owners: RuntimeNode[] = [];
        for (const item of results) {
          if (named.length + owners.length >= MAX_HIGHLIGHT_NODES) break;
          if (item.type === 'node') owners.push(item.node);
          else if (item.type === 'attribute') owners.push(item.owner);
        }
        const found = await Promise.all(owners.map((node) => boundsOf(node).catch(() => undefined)));
        for (const rect of [...named, ...found]) if (rect && rect.width > 0 && rect.height > 0) all.push(rect);
        const shown = await session.highlight(this, all, durationMs);
        return { rects: all, shown };
      },
      'highlight.clear': async () => ({ cleared: await session.clearHighlight() }),
      'events.subscribe': async ({ types, xpath, within }) => {
        this.stopEvents();
        const stream = await EventStream.start(session, { types, xpath, within }, (event) => this.sendEvent(event));
        if (this.closed || this.session !== session) {
          stream.close();
          throw new InspectorError('cancelled', 'the connection closed or changed what it looks at');
        }
        this.events = stream;
        return { subscribed: true, bufferLimit: stream.bufferLimit };
      },
      'events.unsubscribe': async () => ({ unsubscribed: this.stopEvents() }),
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
      'snapshot.diff': async ({ before, after }) =>
        diffSnapshotTexts(
          { xml: before.xml, source: before.name },
          { xml: after.xml, source: after.name },
          { maxEntries: SNAPSHOT_DIFF_ENTRIES },
        ),
      names: async () => nameCatalog(runtime),
      'snapshot.open': async ({ xml, name }) => {
        const opened = await this.live.openSnapshot(xml, name);
        if (this.closed) {
          await opened.close();
          throw new InspectorError('cancelled', 'the connection closed');
        }
        this.closeSnapshot();
        this.snapshot = opened;
        this.view(opened);
        return { name, nodes: await countNodes(opened) };
      },
      'snapshot.close': async () => ({ closed: this.closeSnapshot() }),
      'settings.get': async () => ({ settings: this.live.getSettings() }),
      'settings.set': async ({ values }) => this.live.setSettings(values),
      status: async () => ({
        apiVersion: API_VERSION,
        version: packageVersion(),
        platform: runtime.platform?.id ?? 'none',
        unavailable: [...(runtime.platform?.unavailable ?? [])].map((entry) => ({ ...entry })),
        providers: session.providerStatus(),
        nodesFetched: runtime.nodesFetched,
        accessibility: await session.accessibility(false),
        capabilities: sessionCapabilities(session),
        ...(session.snapshotName ? { snapshot: { name: session.snapshotName } } : {}),
      }),
      'accessibility.status': async () => session.accessibility(false),
      'screen.capture': async ({ region, scale, format, quality, ifChanged }) => {
        const { image, ...capture } = await captureScreen(
          runtime,
          { ...(region ? { region } : {}), scale, format, quality, ...(ifChanged ? { ifChanged } : {}) },
          session.limits.maxScreenPixels,
        );
        return { ...capture, ...(image ? { data: image.toString('base64') } : {}) };
      },
      'screen.elementAt': async (point) => ({
        stack: (await elementsAt(runtime, point)).map(({ node, bounds }) => ({
          node: session.summarize(node),
          bounds: bounds ?? null,
        })),
      }),
      'screen.bounds': async ({ runtimeIds }) => ({
        rects: await Promise.all(
          runtimeIds.map(async (id) => {
            const node = runtime.node(id);
            return (node && (await boundsOf(node))) ?? null;
          }),
        ),
      }),
      'screen.click': async ({ x, y, button, count }) => {
        await clickAt(runtime, { x, y }, button, count);
        return { done: true };
      },
      'screen.scroll': async ({ x, y, deltaX, deltaY }) => {
        await scrollAt(runtime, { x, y }, deltaX, deltaY);
        return { done: true };
      },
      'screen.type': async ({ keys }) => {
        await typeKeys(runtime, keys);
        return { done: true };
      },
      'recording.start': async ({ maxSteps }) => this.live.recording.start(this, maxSteps),
      'recording.stop': async () => this.live.recording.stop(),
      'recording.state': async () => this.live.recording.state(),
      'recording.deleteStep': async ({ id }) => this.live.recording.deleteStep(id),
      'recording.chooseLocator': async ({ id, xpath }) => this.live.recording.chooseLocator(id, xpath),
      'recording.assert': async ({ runtimeId, attribute }) =>
        this.live.recording.assert(this.live.node(runtimeId), attribute),
      'recording.export': async ({ format }) => this.live.recording.export(format),
      'host.stop': async () => {
        const live = this.live;
        if (!live.hostStop) throw new InspectorError('unsupported', 'this host cannot be stopped from its page');
        live.hostStop();
        return { stopping: true };
      },
      'accessibility.enable': async () => {
        const status = await session.accessibility(true);
        this.session.emit({ type: 'provider.status', providers: session.providerStatus() });
        return status;
      },
    };
  }

  private stopEvents(): boolean {
    const events = this.events;
    this.events = undefined;
    events?.close();
    return events !== undefined;
  }

  /** Cancels this connection's evaluations, stops its picking, clears its highlight. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const controller of this.evaluations.values()) controller.abort();
    this.evaluations.clear();
    this.kept.clear();
    if (this.live.picker?.belongsTo(this)) this.live.picker.stop('the connection closed');
    await this.live.recording.release(this).catch(() => undefined);
    this.closed = true;
    this.stopEvents();
    const snapshot = this.snapshot;
    this.snapshot = undefined;
    this.unsubscribe();
    await this.live.clearHighlight(this);
    await Promise.all([snapshot?.close(), ...this.closing]);
  }
}
