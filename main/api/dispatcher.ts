import type { InspectorEvent, MethodName, Params, Result, ServerMessage } from '../../shared/api/schema.js';
import { parseRequest } from '../../shared/api/schema.js';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';
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
import { Evaluations } from '../services/evaluations.js';
import { showHighlight } from '../services/highlight-targets.js';
import { hostStatus } from '../services/host-status.js';
import { childPage, countTreeNodes, desktopOverview, subtreePage } from '../services/tree-view.js';
import { EventStream } from './event-stream.js';
import type { HostContext } from './host-context.js';

/** A comparison lists at most this many nodes to a page (the counts stay whole). */
const SNAPSHOT_DIFF_ENTRIES = 5000;

type Handler<M extends MethodName> = (params: Params<M>) => Promise<Result<M>>;
type Handlers = { [M in MethodName]: Handler<M> };

/**
 * One connection's side of the API (like Playwright's dispatchers): validates every request, maps it to the context
 * (runtime, XPath service, highlight, picker), answers with a result or an error, and forwards events. Closing it
 * cancels its evaluations, stops its picking and clears its highlight.
 */
export class InspectorDispatcher {
  /** This connection's evaluations on the context it looks at, and the results of its last paged ones. */
  private evaluations: Evaluations;
  private unsubscribe: () => void;
  private closed = false;
  private handlers: Handlers;
  /** The context this connection looks at: the live one, or a snapshot it opened (read-only, offline). */
  private context: HostContext;
  private snapshot: HostContext | undefined;
  /** The connection's event subscription (`events.subscribe`), on the context it looks at. */
  private events: EventStream | undefined;
  /** Snapshot contexts still shutting down (their XPath worker can take seconds to stop on a busy machine). */
  private readonly closing = new Set<Promise<void>>();

  constructor(
    private readonly live: HostContext,
    private readonly sendMessage: (message: ServerMessage) => void,
  ) {
    this.context = live;
    this.evaluations = new Evaluations(live, (event) => this.sendEvent(event));
    this.unsubscribe = live.subscribe((event) => this.sendEvent(event));
    this.handlers = this.createHandlers();
  }

  /** Looks at `context` from now on: its tree, its events; evaluations of the one before are cancelled. */
  private view(context: HostContext): void {
    this.evaluations.close();
    this.evaluations = new Evaluations(context, (event) => this.sendEvent(event));
    this.stopEvents();
    this.unsubscribe();
    this.context = context;
    this.unsubscribe = context.subscribe((event) => this.sendEvent(event));
    this.handlers = this.createHandlers();
  }

  /** Back to the live context at once; the snapshot's context shuts down behind (close() waits for it). */
  private closeSnapshot(): boolean {
    const snapshot = this.snapshot;
    if (!snapshot) return false;
    this.snapshot = undefined;
    if (this.context === snapshot) this.view(this.live);
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
      const limits = this.context.limits;
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

  private createHandlers(): Handlers {
    const context = this.context;
    const runtime = context.runtime;
    return {
      desktop: () => desktopOverview(context),
      node: async ({ runtimeId }) => context.summarize(context.node(runtimeId)),
      children: (params) => childPage(context, params),
      subtree: (params) => subtreePage(context, params),
      ancestors: async ({ runtimeId }) => ({
        nodes: (await ancestryOf(runtime, context.node(runtimeId))).map((node) => context.summarize(node)),
      }),
      attributes: async ({ runtimeId, refresh }) => {
        const node = context.node(runtimeId);
        const attributes = await attributesOf(node, refresh);
        return { runtimeId, revision: node.revision, attributes };
      },
      patterns: async ({ runtimeId }) => {
        const node = context.node(runtimeId);
        return { runtimeId, revision: node.revision, patterns: await patternsOf(node) };
      },
      action: async ({ runtimeId, expectedRevision, action, args }) => {
        if (context.snapshotName)
          throw new InspectorError('unsupported', `${context.snapshotName} is a snapshot: it is read-only`);
        const node = context.node(runtimeId);
        await performPatternAction(node, expectedRevision, action, args);
        return { node: context.summarize(node) };
      },
      evaluate: (params) => this.evaluations.evaluate(params),
      'evaluation.page': (params) => this.evaluations.page(params),
      cancel: (params) => this.evaluations.cancel(params),
      highlight: (params) => showHighlight(context, this, params, this.evaluations.results(params.evaluationId)),
      'highlight.clear': async () => ({ cleared: await context.clearHighlight() }),
      'events.subscribe': async ({ types, xpath, within }) => {
        this.stopEvents();
        const stream = await EventStream.start(context, { types, xpath, within }, (event) => this.sendEvent(event));
        if (this.closed || this.context !== context) {
          stream.close();
          throw new InspectorError('cancelled', 'the connection closed or changed what it looks at');
        }
        this.events = stream;
        return { subscribed: true, bufferLimit: stream.bufferLimit };
      },
      'events.unsubscribe': async () => ({ unsubscribed: this.stopEvents() }),
      'pick.start': async ({ intervalMs }) => ({
        started: true,
        ...(await context.startPicking(this, (event) => this.sendEvent(event), intervalMs)),
      }),
      'pick.select': async () => {
        const node = context.activePicker().select();
        return { node: node ? context.summarize(node) : null };
      },
      'pick.cycle': async ({ delta }) => ({ depth: context.activePicker().cycle(delta) }),
      'pick.stop': async () => {
        const picker = context.picker;
        picker?.stop('stopped');
        return { stopped: picker !== undefined };
      },
      locate: async ({ runtimeId, limit }) => ({
        runtimeId,
        locators: await locatorsOf(runtime, context.xpath, context.node(runtimeId), limit),
      }),
      export: async ({ runtimeId, format, action }) => ({
        format,
        ...(await exportNode(runtime, context.xpath, context.node(runtimeId), format, action)),
      }),
      check: async (params) =>
        checkRequest(runtime, context.xpath, params.runtimeId ? context.node(params.runtimeId) : undefined, params),
      snapshot: async ({ runtimeId, maxDepth, attrs }) =>
        snapshotXml(runtime, runtimeId ? context.node(runtimeId) : runtime.desktop, { attrs, maxDepth }),
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
        return { name, nodes: await countTreeNodes(opened) };
      },
      'snapshot.close': async () => ({ closed: this.closeSnapshot() }),
      'settings.get': async () => ({ settings: this.live.getSettings() }),
      'settings.set': async ({ values }) => this.live.setSettings(values),
      status: () => hostStatus(context),
      'accessibility.status': async () => context.accessibility(false),
      'screen.capture': async ({ region, scale, format, quality, ifChanged, waitMs }) => {
        const { image, ...capture } = await captureScreen(
          runtime,
          { ...(region ? { region } : {}), scale, format, quality, waitMs, ...(ifChanged ? { ifChanged } : {}) },
          context.limits.maxScreenPixels,
        );
        return { ...capture, ...(image ? { data: image.toString('base64') } : {}) };
      },
      'screen.elementAt': async (point) => ({
        stack: (await elementsAt(runtime, point)).map(({ node, bounds }) => ({
          node: context.summarize(node),
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
        const status = await context.accessibility(true);
        this.context.emit({ type: 'provider.status', providers: context.providerStatus() });
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
    this.evaluations.close();
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
