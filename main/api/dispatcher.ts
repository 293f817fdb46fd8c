import type { InspectorEvent, MethodName, Params, Result, ServerMessage } from '../../shared/api/schema.js';
import { parseRequest } from '../../shared/api/schema.js';
import { toInspectorError } from '../../shared/model/errors.js';
import { enableAccessibility } from '../services/accessibility-status.js';
import { nameCatalog } from '../services/name-catalog.js';
import {
  nodeAction,
  nodeAncestors,
  nodeAttributes,
  nodeExport,
  nodeLocators,
  nodePatterns,
  nodeSummary,
} from '../services/node-requests.js';
import { snapshotDiffRequest } from '../services/snapshot-diff.js';
import { snapshotRequest } from '../services/snapshot-xml.js';
import { SnapshotViews } from '../services/snapshot-views.js';
import { checkRequest } from '../services/check-request.js';
import {
  screenBounds,
  screenCapture,
  screenClick,
  screenElementAt,
  screenScroll,
  screenType,
} from '../services/screen-requests.js';
import { Evaluations } from '../services/evaluations.js';
import { EventSubscription } from '../services/event-subscription.js';
import { showHighlight } from '../services/highlight-targets.js';
import { hostStatus, stopHost } from '../services/host-status.js';
import { childPage, desktopOverview, subtreePage } from '../services/tree-view.js';
import type { HostContext } from './host-context.js';

type Handler<M extends MethodName> = (params: Params<M>) => Promise<Result<M>>;
type Handlers = { [M in MethodName]: Handler<M> };

/**
 * One connection's side of the API (like Playwright's dispatchers): validates every request, hands it to a service
 * over the context it looks at (runtime, XPath service, highlight, picking), answers with a result or an error, and
 * forwards events. Closing it cancels its evaluations and its event subscription, stops its picking and clears its
 * highlight.
 */
export class InspectorDispatcher {
  /** This connection's evaluations on the context it looks at, and the results of its last paged ones. */
  private evaluations: Evaluations;
  /** The connection's event subscription (`events.subscribe`), on the context it looks at. */
  private events: EventSubscription;
  private unsubscribe: () => void;
  private closed = false;
  private handlers: Handlers;
  /** The context this connection looks at: the live one, or a snapshot it opened (read-only, offline). */
  private context: HostContext;
  private readonly snapshots: SnapshotViews<HostContext>;

  constructor(
    private readonly live: HostContext,
    private readonly sendMessage: (message: ServerMessage) => void,
  ) {
    const send = (event: InspectorEvent) => this.sendEvent(event);
    this.context = live;
    this.evaluations = new Evaluations(live, send);
    this.events = new EventSubscription(live, send);
    this.unsubscribe = live.subscribe(send);
    this.snapshots = new SnapshotViews(live, (snapshot) => this.view(snapshot ?? live));
    this.handlers = this.createHandlers();
  }

  /** Looks at `context` from now on: its tree, its events; evaluations and the subscription of the one before end. */
  private view(context: HostContext): void {
    const send = (event: InspectorEvent) => this.sendEvent(event);
    this.evaluations.close();
    this.evaluations = new Evaluations(context, send);
    this.events.close();
    this.events = new EventSubscription(context, send);
    this.unsubscribe();
    this.context = context;
    this.unsubscribe = context.subscribe(send);
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

  /** Each handler is one call into a service (main/services) or the host context. */
  private createHandlers(): Handlers {
    const context = this.context;
    const runtime = context.runtime;
    const live = this.live;
    const events = this.events;
    const send = (event: InspectorEvent) => this.sendEvent(event);
    return {
      desktop: () => desktopOverview(context),
      node: (params) => nodeSummary(context, params),
      children: (params) => childPage(context, params),
      subtree: (params) => subtreePage(context, params),
      ancestors: (params) => nodeAncestors(context, params),
      attributes: (params) => nodeAttributes(context, params),
      patterns: (params) => nodePatterns(context, params),
      action: (params) => nodeAction(context, params),
      evaluate: (params) => this.evaluations.evaluate(params),
      'evaluation.page': (params) => this.evaluations.page(params),
      cancel: (params) => this.evaluations.cancel(params),
      highlight: (params) => showHighlight(context, this, params, this.evaluations.results(params.evaluationId)),
      'highlight.clear': async () => ({ cleared: await context.clearHighlight() }),
      'events.subscribe': (filter) => events.subscribe(filter),
      'events.unsubscribe': async () => events.unsubscribe(),
      'pick.start': ({ intervalMs }) => context.picking.start(this, send, intervalMs),
      'pick.select': async () => context.picking.select(),
      'pick.cycle': async ({ delta }) => context.picking.cycle(delta),
      'pick.stop': async () => context.picking.stop(),
      locate: (params) => nodeLocators(context, params),
      export: (params) => nodeExport(context, params),
      check: (params) => checkRequest(context, params),
      snapshot: (params) => snapshotRequest(context, params),
      'snapshot.diff': async (params) => snapshotDiffRequest(params),
      names: async () => nameCatalog(runtime),
      'snapshot.open': (params) => this.snapshots.open(params),
      'snapshot.close': async () => this.snapshots.close(),
      'settings.get': async () => ({ settings: live.getSettings() }),
      'settings.set': async ({ values }) => live.setSettings(values),
      status: () => hostStatus(context),
      'accessibility.status': () => context.accessibility(false),
      'accessibility.enable': () => enableAccessibility(context),
      'screen.capture': (params) => screenCapture(context, params),
      'screen.elementAt': (point) => screenElementAt(context, point),
      'screen.bounds': (params) => screenBounds(runtime, params),
      'screen.click': (params) => screenClick(runtime, params),
      'screen.scroll': (params) => screenScroll(runtime, params),
      'screen.type': (params) => screenType(runtime, params),
      'recording.start': async ({ maxSteps }) => live.recording.start(this, maxSteps),
      'recording.stop': async () => live.recording.stop(),
      'recording.state': async () => live.recording.state(),
      'recording.deleteStep': async ({ id }) => live.recording.deleteStep(id),
      'recording.chooseLocator': async ({ id, xpath }) => live.recording.chooseLocator(id, xpath),
      'recording.assert': async ({ runtimeId, attribute }) => live.recording.assert(live.node(runtimeId), attribute),
      'recording.export': async ({ format }) => live.recording.export(format),
      'host.stop': async () => stopHost(live),
    };
  }

  /** Cancels this connection's evaluations and subscription, stops its picking, clears its highlight. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.evaluations.close();
    this.live.picking.release(this, 'the connection closed');
    await this.live.recording.release(this).catch(() => undefined);
    this.closed = true;
    const snapshotsClosed = this.snapshots.closeAll();
    this.events.close();
    this.unsubscribe();
    await this.live.clearHighlight(this);
    await snapshotsClosed;
  }
}
