/**
 * The UI's InspectorApi backed by the shared typed client (shared/api/client.ts) over any transport: a WebSocket
 * to the browser host, or the Electron preload's bridge. Maps the host's messages and events onto the UI's shapes.
 */
import { ApiRequestError, InspectorClient, type Transport } from '../../shared/api/client.js';
import type { InspectorEvent, NodeSummary, EvaluationItem } from '../../shared/api/schema.js';
import type {
  ActionResult,
  Evaluation,
  HostEvent,
  InspectorApi,
  Locator,
  NodeView,
  PatternView,
  PickStart,
  ResultItem,
  SessionInfo,
} from './types.js';
import { ApiError } from './types.js';

const PAGE = 2000;

function view(node: NodeSummary): NodeView {
  return {
    runtimeId: node.runtimeId,
    namespace: node.namespace,
    role: node.role,
    name: node.name,
    hasChildren: node.hasChildren,
    revision: node.revision,
    ...(node.stale ? { stale: true } : {}),
  };
}

function item(raw: EvaluationItem): ResultItem {
  switch (raw.type) {
    case 'node':
      return { type: 'node', node: view(raw.node) };
    case 'attribute':
      return { type: 'attribute', owner: view(raw.owner), namespace: raw.namespace, name: raw.name, value: raw.value };
    case 'value':
      return { type: 'value', value: raw.value };
  }
}

function wrap(error: unknown): ApiError {
  if (error instanceof ApiRequestError) {
    return new ApiError({
      code: error.code,
      message: error.message,
      ...(error.position ? { position: error.position } : {}),
    });
  }
  return new ApiError({ code: 'internal', message: error instanceof Error ? error.message : String(error) });
}

async function call<T>(promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (error) {
    throw wrap(error);
  }
}

export class ClientApi implements InspectorApi {
  private readonly listeners = new Set<(event: HostEvent) => void>();

  constructor(readonly client: InspectorClient) {
    client.onAny((event) => this.forward(event));
  }

  static overTransport(transport: Transport): ClientApi {
    return new ClientApi(new InspectorClient(transport, { requestTimeoutMs: 60000 }));
  }

  private forward(event: InspectorEvent): void {
    const out: HostEvent[] = [];
    switch (event.type) {
      case 'tree.changed':
        if (event.overflow) out.push({ type: 'tree-changed', kind: 'TreeInvalidated' });
        else {
          for (const change of event.changes) {
            out.push({
              type: 'tree-changed',
              kind: change.kind,
              ...(change.runtimeId ? { runtimeId: change.runtimeId } : {}),
              ...(change.parentRuntimeId ? { parentRuntimeId: change.parentRuntimeId } : {}),
            });
          }
        }
        break;
      case 'pick.hover':
        out.push({
          type: 'pick-hover',
          point: event.point,
          node: event.node ? view(event.node) : undefined,
          depth: event.depth,
          stackSize: event.stackSize,
        });
        break;
      case 'focus.changed':
        out.push({ type: 'focus-changed', node: view(event.node) });
        break;
      case 'pick.selected':
        out.push({ type: 'pick-end', node: view(event.node) });
        break;
      case 'pick.stopped':
        out.push({ type: 'pick-end' });
        break;
      case 'provider.status':
        out.push({
          type: 'status',
          message: event.providers
            .map((p) => `${p.displayName}: ${p.state}${p.message ? ` (${p.message})` : ''}`)
            .join(', '),
          level: event.providers.some((p) => p.state !== 'ready') ? 'error' : 'info',
        });
        break;
      default:
        break;
    }
    for (const e of out) for (const listener of [...this.listeners]) listener(e);
  }

  async info(): Promise<SessionInfo> {
    const [desktop, status] = await call(Promise.all([this.client.desktop(), this.client.status()]));
    const pointer = !status.unavailable.some((u) => u.device === 'pointer') && status.platform !== 'none';
    return {
      desktop: view(desktop.node),
      providers: status.providers.map((p) => ({
        id: p.id,
        name: p.displayName,
        technology: p.technology,
        state: p.state,
      })),
      accessibility: status.accessibility.enabled ? 'on' : 'off',
      platform: status.platform,
      features: {
        pick: pointer,
        highlight: !status.unavailable.some((u) => u.device === 'highlight'),
        locators: true,
        followFocus: true,
      },
    };
  }

  async children(runtimeId: string): Promise<NodeView[]> {
    const out: NodeView[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await call(this.client.children(runtimeId, { offset, limit: PAGE }));
      out.push(...page.nodes.map(view));
      if (page.nodes.length === 0 || offset + page.nodes.length >= page.total) return out;
    }
  }

  async attributes(runtimeId: string) {
    const result = await call(this.client.attributes(runtimeId));
    return result.attributes.map((a) => ({
      namespace: a.namespace,
      name: a.name,
      value: a.value,
      ...(a.derived ? { derived: true } : {}),
    }));
  }

  async patterns(runtimeId: string): Promise<PatternView[]> {
    const result = await call(this.client.patterns(runtimeId));
    return result.patterns.map((p) => ({
      name: p.name,
      actions: p.actions,
      attributes: p.attributes.map((a) => ({
        namespace: a.namespace,
        name: a.name,
        value: a.value,
        ...(a.derived ? { derived: true } : {}),
      })),
      missing: p.missing,
    }));
  }

  async path(runtimeId: string): Promise<NodeView[]> {
    const [ancestors, node] = await call(Promise.all([this.client.ancestors(runtimeId), this.client.node(runtimeId)]));
    return [...ancestors.nodes.map(view), view(node)];
  }

  async refresh(runtimeId: string, subtree: boolean): Promise<void> {
    await call(
      Promise.all([
        this.client.attributes(runtimeId, { refresh: true }),
        subtree ? this.client.children(runtimeId, { refresh: true, limit: 1 }) : Promise.resolve(undefined),
      ]),
    );
  }

  async performAction(runtimeId: string, action: string, args: unknown, revision: number): Promise<ActionResult> {
    const a = (args ?? {}) as { value?: string | number; x?: number; y?: number; width?: number; height?: number };
    const clean: typeof a = {};
    for (const key of ['value', 'x', 'y', 'width', 'height'] as const) {
      if (a[key] !== undefined && a[key] !== '') (clean as Record<string, unknown>)[key] = a[key];
    }
    await call(this.client.action(runtimeId, revision, action, clean));
    return { ok: true, message: `${action}: done` };
  }

  evaluate(expression: string, onItems: (items: ResultItem[]) => void): Evaluation {
    const handle = this.client.evaluate(expression, { onItems: (items) => onItems(items.map(item)) });
    return {
      done: handle.done.then(
        (summary) => ({ count: summary.count, ms: summary.ms, ...(summary.truncated ? { truncated: true } : {}) }),
        (error: unknown) => {
          throw wrap(error);
        },
      ),
      cancel: () => void handle.cancel().catch(() => undefined),
    };
  }

  async highlight(runtimeIds: string[]): Promise<void> {
    await call(this.client.highlight({ runtimeIds, durationMs: 3000 }));
  }

  async clearHighlight(): Promise<void> {
    await call(this.client.clearHighlight());
  }

  async startPick(): Promise<PickStart> {
    const result = await call(this.client.startPick());
    return { clickSelects: result.clickSelects, ...(result.clickNote ? { note: result.clickNote } : {}) };
  }

  async cyclePick(delta: number): Promise<void> {
    await call(this.client.cyclePick(delta));
  }

  async stopPick(accept: boolean): Promise<NodeView | undefined> {
    if (accept) {
      const result = await call(this.client.selectPick());
      return result.node ? view(result.node) : undefined;
    }
    await call(this.client.stopPick());
    return undefined;
  }

  async setFollowFocus(): Promise<void> {
    // The host always reports focus changes; the session store decides whether to follow them.
  }

  async enableAccessibility(): Promise<void> {
    await call(this.client.enableAccessibility());
  }

  async locators(runtimeId: string): Promise<Locator[]> {
    const result = await call(this.client.locate(runtimeId));
    const locators: Locator[] = result.locators.map((locator) => ({
      xpath: locator.xpath,
      score: locator.score,
      unique: locator.matches === 1,
      description: `${locator.strategy}: ${locator.reason}`,
    }));
    // Code for the best locator, in the formats a test author pastes.
    const first = locators[0];
    if (first) {
      const code: { [language: string]: string } = {};
      await Promise.all(
        (['robot', 'python', 'dogtail'] as const).map(async (format) => {
          const exported = await this.client.exportCode(runtimeId, format).catch(() => undefined);
          if (exported) code[format] = exported.code;
        }),
      );
      first.code = code;
    }
    return locators;
  }

  subscribe(listener: (event: HostEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
