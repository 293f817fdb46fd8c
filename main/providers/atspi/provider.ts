import { InspectorError } from '../../../shared/model/errors.js';
import { ATSPI_DESCRIPTOR } from './descriptor.js';
import type {
  NodeDescription,
  ProviderContext,
  ProviderEvent,
  ProviderEventListener,
  ProviderNode,
  ProviderStatus,
  ProviderUiEventListener,
  UiTreeProvider,
} from '../../core/provider.js';
import { DESKTOP_RUNTIME_ID } from '../../core/provider.js';
import type { UiEventType } from '../../../shared/model/ui-events.js';
import type { WindowManager } from '../../core/platform.js';
import { resolveAccessibilityBus, type Environment } from './accessibility-status.js';
import type { ObjectRef } from './atspi-calls.js';
import { AtspiCalls, isNullRef, REGISTRY_NAME, ROOT_PATH } from './atspi-calls.js';
import { DbusClient, DEFAULT_CALL_TIMEOUT_MS, isGoneError, isNotRespondingError } from '../../dbus/dbus-client.js';
import type { AtspiChange, EventSubscription } from './events.js';
import { ON_DEMAND_EVENTS, subscribeToEvents, translateUiEvent } from './events.js';
import type { SignalMessage } from '../../dbus/dbus-client.js';
import type { ApplicationData, NodeData, NodeHeader } from './node-data.js';
import { hasInterface, newApplicationData, newNodeData, runtimeIdOf } from './node-data.js';
import { AtspiNode, secureByAttributes, type NodeHost } from './node.js';
import { isProcessStopped, readProcessInfo } from './process-info.js';
import { ATSPI_ROLE, mapRole } from './roles.js';
import { hasState, S, stateNumber, withState } from './states.js';
import { NodeStore, TreeLoader } from './tree-loader.js';

export { ATSPI_DESCRIPTOR };

export interface AtspiProviderOptions {
  callTimeoutMs?: number;
  /** Timeout of the bulk calls that return whole trees; default 10x the call timeout, at least 5 s. */
  bulkTimeoutMs?: number;
  /** Bulk loading on (default) or off (lazy GetChildren walks only, for comparison). */
  bulk?: boolean;
  env?: Environment;
  /** Connect to this bus directly instead of resolving it. */
  busAddress?: string;
  windowManager?: WindowManager;
  /** Calls to applications on their own sockets when they offer one (default), or all through the bus. */
  peerToPeer?: boolean;
  /** Process ids whose applications are left out (default: this process). */
  excludeProcessIds?: readonly number[];
  /** From this many nodes its cache lacks on, a bulk load leaves their states and interfaces for later (tests). */
  partialFromNodes?: number;
}

/** The AT-SPI2 provider: the applications on the accessibility bus and their trees, live. */
export class AtspiProvider implements UiTreeProvider, NodeHost {
  readonly descriptor = ATSPI_DESCRIPTOR;
  readonly store = new NodeStore();
  readonly loader: TreeLoader;
  readonly calls: AtspiCalls;
  private readonly apps = new Map<string, { app: ApplicationData; root: NodeData | undefined }>();
  private readonly listeners = new Set<ProviderEventListener>();
  private readonly uiWatchers = new Set<{ types: ReadonlySet<UiEventType>; listener: ProviderUiEventListener }>();
  /** How many watchers want each on-demand AT-SPI event (registered while above zero). */
  private readonly onDemand = new Map<string, number>();
  private subscription: EventSubscription | undefined;
  private stopped = false;
  private readonly excluded: ReadonlySet<number>;
  private lastError: string | undefined;

  private constructor(
    readonly client: DbusClient,
    readonly windowManager: WindowManager | undefined,
    private readonly options: AtspiProviderOptions,
  ) {
    this.calls = new AtspiCalls(client);
    const callTimeout = client.callTimeoutMs;
    this.loader = new TreeLoader(this.calls, this.store, {
      bulkTimeoutMs: options.bulkTimeoutMs ?? Math.max(5000, callTimeout * 10),
      ...(options.partialFromNodes === undefined ? {} : { partialFromNodes: options.partialFromNodes }),
    });
    this.excluded = new Set(options.excludeProcessIds ?? [process.pid]);
    client.onClose = (reason) => {
      if (!this.stopped) this.emit({ kind: 'TreeInvalidated', reason });
    };
    client.isStopped = (destination) => {
      const pid = this.apps.get(destination)?.app.processId;
      return pid === undefined ? true : isProcessStopped(pid);
    };
  }

  static async create(options: AtspiProviderOptions = {}): Promise<AtspiProvider> {
    const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const address = options.busAddress ?? (await resolveAccessibilityBus(options.env ?? process.env, timeoutMs));
    const client = await DbusClient.connect(address, { callTimeoutMs: timeoutMs });
    const provider = new AtspiProvider(client, options.windowManager, options);
    try {
      provider.subscription = await subscribeToEvents(
        client,
        provider.calls,
        (change) => provider.apply(change),
        (signal, registryOwner) => provider.emitUiEvent(signal, registryOwner),
      );
    } catch (error) {
      client.close();
      throw error;
    }
    return provider;
  }

  static fromContext(context: ProviderContext): Promise<AtspiProvider> {
    return AtspiProvider.create({
      ...(context.options.callTimeoutMs ? { callTimeoutMs: context.options.callTimeoutMs } : {}),
      ...(context.windowManager ? { windowManager: context.windowManager } : {}),
    });
  }

  nodeFor(data: NodeData): AtspiNode {
    let node = data.view as AtspiNode | undefined;
    if (!node) {
      node = new AtspiNode(this, data, data.ref[1] === ROOT_PATH && data.role === ATSPI_ROLE.Application);
      data.view = node;
    }
    return node;
  }

  ensureBulk(root: NodeData): Promise<void> {
    const app = root.app;
    if (this.options.bulk === false) {
      app.bulk = 'lazy';
      return Promise.resolve();
    }
    if (!app.bulkPromise) {
      app.bulk = 'loading';
      app.bulkPromise = this.loader.bulkLoad(root).catch((error: unknown) => {
        app.bulk = 'lazy';
        app.loadedBy = 'GetChildren';
        if (isNotRespondingError(error) || isGoneError(error)) {
          app.bulkPromise = undefined;
          app.bulk = 'none';
          throw error;
        }
      });
    }
    return app.bulkPromise;
  }

  /** Makes the developer ids of an application's nodes definitive (after its bulk load, if one is running). */
  async loadIds(app: ApplicationData): Promise<void> {
    app.idsWanted = true;
    if (app.bulk === 'loading' && app.bulkPromise) await app.bulkPromise.catch(() => undefined);
    await this.loader.loadIds(app);
  }

  /** The applications on the bus (own process and registrations without children left out). */
  async roots(): Promise<readonly ProviderNode[]> {
    this.checkRunning();
    let refs: ObjectRef[];
    try {
      refs = await this.calls.getChildren([REGISTRY_NAME, ROOT_PATH]);
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      throw new InspectorError('provider-unavailable', `the AT-SPI registry does not answer: ${this.lastError}`);
    }
    const live = new Set<string>();
    const results = await Promise.all(
      refs
        .filter((ref) => !isNullRef(ref))
        .map(async (ref) => {
          live.add(ref[0]);
          return this.application(ref);
        }),
    );
    for (const [busName, entry] of this.apps) {
      if (!live.has(busName)) this.forgetApplication(entry.app);
    }
    return results.filter((node): node is AtspiNode => node !== undefined);
  }

  private async application(ref: ObjectRef): Promise<AtspiNode | undefined> {
    const busName = ref[0];
    let entry = this.apps.get(busName);
    if (!entry) {
      const app = newApplicationData(busName, ref);
      entry = { app, root: undefined };
      this.apps.set(busName, entry);
      const pid = await this.calls.getConnectionUnixProcessId(busName);
      app.processId = pid;
      if (pid !== undefined && !this.excluded.has(pid)) {
        [app.processInfo] = await Promise.all([readProcessInfo(pid), this.connectPeer(app)]);
      }
    }
    const { app } = entry;
    if (app.processId !== undefined && this.excluded.has(app.processId)) return undefined;
    if (!entry.root) {
      const root = await this.readApplicationRoot(app, ref);
      if (!root) return undefined;
      entry.root = root;
      this.store.put(root);
    } else if (!app.responding || entry.root.stale || entry.root.childCount === 0) {
      if (!(await this.recheckApplication(entry.root))) {
        if (app.gone) return undefined;
      }
    }
    if (entry.root.childCount === 0 && app.responding) return undefined;
    return this.nodeFor(entry.root);
  }

  /**
   * Talks to the application over its own socket when it has one, as libatspi does: the bus daemon then neither
   * routes nor copies the thousands of calls a bulk load makes. Without one (or when it cannot be reached) calls go
   * through the bus; a failure to answer here shows in the header read that follows.
   */
  private async connectPeer(app: ApplicationData): Promise<void> {
    if (this.options.peerToPeer === false) return;
    try {
      const address = await this.calls.getApplicationBusAddress(app.busName);
      if (address.startsWith('unix:')) await this.client.connectPeer(app.busName, address);
    } catch {
      // Through the bus, as before.
    }
  }

  /**
   * The root of a newly seen application. One that does not answer still appears, with what the bus and /proc
   * know (named after its process), marked not responding and without children; undefined when it is gone.
   */
  private async readApplicationRoot(app: ApplicationData, ref: ObjectRef): Promise<NodeData | undefined> {
    let header: NodeHeader;
    try {
      header = await this.loader.fetchHeader(ref);
    } catch (error) {
      if (isGoneError(error)) {
        this.forgetApplication(app);
        return undefined;
      }
      if (!isNotRespondingError(error)) throw error;
      app.responding = false;
      header = {
        role: ATSPI_ROLE.Application,
        name: app.processInfo?.processName ?? app.busName,
        description: '',
        accessibleId: '',
        states: [],
        interfaces: ['org.a11y.atspi.Accessible', 'org.a11y.atspi.Application'],
        childCount: -1,
        partial: false,
      };
    }
    header.role = ATSPI_ROLE.Application;
    return newNodeData(ref, app, undefined, header);
  }

  /**
   * Reads an application root's header again (a stale one, or one of an application that did not answer, once its
   * back-off passed). True when it answered; a not-responding application stays shown without children.
   */
  async recheckApplication(root: NodeData): Promise<boolean> {
    const { app } = root;
    if (app.gone) return false;
    if (this.client.isHung(app.busName)) {
      app.responding = false;
      return false;
    }
    let header: NodeHeader;
    try {
      header = await this.loader.fetchHeader(root.ref);
    } catch (error) {
      if (isGoneError(error)) {
        this.forgetApplication(app);
        return false;
      }
      if (!isNotRespondingError(error)) throw error;
      app.responding = false;
      return false;
    }
    header.role = ATSPI_ROLE.Application;
    if (!app.responding) {
      // Back: what was learnt while it hung (nothing below the root) is read afresh.
      app.responding = true;
      app.bulk = 'none';
      app.bulkPromise = undefined;
      viewOf(root)?.invalidate();
    }
    Object.assign(root, header, { stale: false });
    return true;
  }

  private forgetApplication(app: ApplicationData): void {
    app.gone = true;
    this.store.removeApplication(app);
    this.apps.delete(app.busName);
  }

  subscribe(listener: ProviderEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Typed events of these kinds; the AT-SPI events behind kinds the tree does not need are registered meanwhile. */
  watchUiEvents(types: ReadonlySet<UiEventType>, listener: ProviderUiEventListener): () => void {
    const watcher = { types: new Set(types), listener };
    this.uiWatchers.add(watcher);
    const events = [...watcher.types].flatMap((type) => ON_DEMAND_EVENTS[type] ?? []);
    for (const event of events) {
      const count = this.onDemand.get(event) ?? 0;
      this.onDemand.set(event, count + 1);
      if (count === 0) this.calls.registerEvent(event).catch(() => undefined);
    }
    let stopped = false;
    return () => {
      if (stopped) return;
      stopped = true;
      this.uiWatchers.delete(watcher);
      for (const event of events) {
        const count = (this.onDemand.get(event) ?? 1) - 1;
        if (count > 0) {
          this.onDemand.set(event, count);
          continue;
        }
        this.onDemand.delete(event);
        if (!this.stopped) this.calls.deregisterEvent(event).catch(() => undefined);
      }
    };
  }

  /** The AT-SPI events registered now only because someone watches their kind (for tests and status). */
  get watchedOnDemandEvents(): readonly string[] {
    return [...this.onDemand.keys()];
  }

  private emitUiEvent(signal: SignalMessage, registryOwner: string | undefined): void {
    if (this.uiWatchers.size === 0 || this.stopped) return;
    const event = translateUiEvent(signal, registryOwner);
    if (!event) return;
    // The application an event is about: its sender's, or for the desktop's children-changed the one coming or going.
    const appBus =
      event.runtimeId === DESKTOP_RUNTIME_ID && event.type === 'children-changed' && event.child !== undefined
        ? refOfRuntimeId(event.child)?.[0]
        : signal.sender;
    const app = appBus === undefined ? undefined : this.apps.get(appBus)?.app;
    if (app?.processId !== undefined && this.excluded.has(app.processId)) return;
    for (const watcher of this.uiWatchers) {
      if (!watcher.types.has(event.type)) continue;
      try {
        watcher.listener(event);
      } catch {
        // One watcher's failure must not keep the event from the others.
      }
    }
  }

  /**
   * Role, name and security of a node, from the store when it holds the node, else asked (role, name, and for
   * entries their object attributes, which say whether they take a password); undefined when it is gone.
   */
  async describeNode(runtimeId: string): Promise<NodeDescription | undefined> {
    const held = this.store.get(runtimeId);
    const ref = held?.ref ?? refOfRuntimeId(runtimeId);
    if (!ref) return undefined;
    try {
      const fresh = held && !held.stale ? held : undefined;
      const [role, name] = fresh
        ? [fresh.role, fresh.name]
        : await Promise.all([this.calls.getRole(ref), this.calls.getName(ref)]);
      const isApplication = ref[1] === ROOT_PATH && role === ATSPI_ROLE.Application;
      let isSecure = role === ATSPI_ROLE.PasswordText || held?.knownSecure === true;
      if (!isSecure && (role === ATSPI_ROLE.Entry || role === ATSPI_ROLE.Text)) {
        isSecure = secureByAttributes(held?.objectAttributes ?? (await this.calls.getAttributes(ref)));
      }
      const mapped = mapRole(role);
      return isApplication
        ? { namespace: 'app', role: 'Application', name, isSecure: false }
        : { namespace: mapped.namespace, role: mapped.role, name, isSecure };
    } catch (error) {
      if (isGoneError(error)) return undefined;
      throw error;
    }
  }

  private emit(event: ProviderEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // A failing listener must not break event delivery to the others.
      }
    }
  }

  /** Applies one change to the node store (targeted invalidation) and forwards it. */
  private apply(change: AtspiChange): void {
    if (this.stopped) return;
    switch (change.kind) {
      case 'application-gone': {
        const entry = this.apps.get(change.busName);
        if (!entry) return;
        const runtimeId = entry.root?.key ?? runtimeIdOf([change.busName, ROOT_PATH]);
        this.forgetApplication(entry.app);
        this.emit({ kind: 'NodeRemoved', runtimeId });
        return;
      }
      case 'children-added':
      case 'children-removed': {
        if (change.fromRegistry) {
          // An application registered or left.
          if (change.kind === 'children-removed' && change.child) {
            const busName = change.child.slice('atspi://'.length).split('/')[0] ?? '';
            const entry = this.apps.get(busName);
            if (entry) this.forgetApplication(entry.app);
            this.emit({ kind: 'NodeRemoved', runtimeId: change.child });
          } else if (change.child) {
            this.emit({ kind: 'NodeAdded', runtimeId: change.child });
          } else {
            this.emit({ kind: 'TreeInvalidated', reason: 'applications changed' });
          }
          return;
        }
        const parent = this.store.get(change.parent);
        if (!parent) return;
        parent.children = undefined;
        const parentNode = viewOf(parent);
        if (parentNode) parentNode.invalidate();
        parent.stale = false;
        if (change.kind === 'children-removed') {
          if (change.child) this.store.removeSubtree(change.child);
          this.emit({
            kind: 'NodeRemoved',
            runtimeId: change.child ?? parent.key,
            parentRuntimeId: parent.key,
          });
        } else {
          if (parent.ref[1] === ROOT_PATH) parent.childCount = Math.max(parent.childCount, 1);
          this.emit({ kind: 'NodeAdded', runtimeId: change.child ?? parent.key, parentRuntimeId: parent.key });
        }
        return;
      }
      case 'property': {
        const data = this.store.get(change.target);
        if (!data) return;
        if (change.name !== undefined) data.name = change.name;
        else if (change.description !== undefined) data.description = change.description;
        else if (change.property === 'accessible-parent' || change.property === 'accessible-role') data.stale = true;
        viewOf(data)?.dropAttributes();
        this.emit({ kind: 'NodeUpdated', runtimeId: data.key, attributes: change.attributes });
        return;
      }
      case 'state': {
        const data = this.store.get(change.target);
        if (!data) return;
        const state = stateNumber(change.state);
        if (state > 0) data.states = withState(data.states, state, change.on);
        if (data.partial) this.loader.stateChanged(data);
        viewOf(data)?.dropAttributes();
        if (state === S.Defunct && change.on) {
          this.store.removeSubtree(data.key);
          this.emit({
            kind: 'NodeRemoved',
            runtimeId: data.key,
            ...(data.parentKey ? { parentRuntimeId: data.parentKey } : {}),
          });
          return;
        }
        this.emit({ kind: 'NodeUpdated', runtimeId: data.key, attributes: change.attributes });
        return;
      }
      case 'window': {
        if (change.event === 'Create' || change.event === 'Destroy') {
          const data = this.store.get(change.target);
          const app = this.apps.get(change.target.slice('atspi://'.length).split('/')[0] ?? '');
          const root = app?.root;
          if (root) {
            root.children = undefined;
            root.childCount = Math.max(root.childCount, 1);
            this.emit({
              kind: change.event === 'Create' ? 'NodeAdded' : 'NodeRemoved',
              runtimeId: change.target,
              parentRuntimeId: root.key,
            });
          }
          if (data && change.event === 'Destroy') this.store.removeSubtree(data.key);
        }
        return;
      }
      case 'cache-add': {
        // Usually announced by children-changed as well: only act when it tells something new.
        if (this.store.get(change.target) || !change.parent) return;
        const parent = this.store.get(change.parent);
        if (!parent || parent.children === undefined) return;
        parent.children = undefined;
        viewOf(parent)?.invalidate();
        parent.stale = false;
        this.emit({ kind: 'NodeAdded', runtimeId: change.target, parentRuntimeId: parent.key });
        return;
      }
      case 'cache-remove': {
        const data = this.store.get(change.target);
        if (!data) return;
        const parent = data.parentKey ? this.store.get(data.parentKey) : undefined;
        this.store.removeSubtree(data.key);
        if (parent) {
          parent.children = undefined;
          viewOf(parent)?.invalidate();
          parent.stale = false;
        }
        this.emit({ kind: 'NodeRemoved', runtimeId: data.key, ...(parent ? { parentRuntimeId: parent.key } : {}) });
        return;
      }
    }
  }

  status(): ProviderStatus {
    if (this.stopped) return { state: 'unavailable', message: 'the provider was shut down' };
    if (this.client.isClosed) return { state: 'unavailable', message: 'the accessibility bus connection was lost' };
    const hung = [...this.apps.values()].filter(({ app }) => !app.responding || this.client.isHung(app.busName));
    const problems = [...this.apps.values()].flatMap(({ app }) => app.problems);
    const details: { [key: string]: string | number | boolean } = {
      busAddress: this.client.address,
      applications: this.apps.size,
      cachedNodes: this.store.nodes.size,
      calls: this.client.callCount,
    };
    if (hung.length > 0) details.notResponding = hung.map(({ app }) => app.busName).join(' ');
    if (problems.length > 0) details.problems = problems.slice(0, 20).join('; ');
    if (hung.length > 0) {
      const names = hung
        .map(({ app, root }) => {
          const pid = app.processId !== undefined ? `, pid ${app.processId}` : '';
          return `${root?.name ?? app.busName} (${app.busName}${pid})`;
        })
        .join(', ');
      const what = hung.length === 1 ? 'application is' : 'applications are';
      return { state: 'degraded', message: `not responding: ${names}; the ${what} shown without children`, details };
    }
    return { state: 'ready', details, ...(this.lastError ? { message: this.lastError } : {}) };
  }

  /** Elements at a desktop point inside the application with this process id (or any), deepest first. */
  async nodesAtPoint(point: { x: number; y: number }, processId: number | undefined): Promise<readonly ProviderNode[]> {
    const roots = (await this.roots()) as AtspiNode[];
    let pid = processId;
    if (pid === undefined && this.windowManager) {
      // The window manager knows the stacking order: pick in the application of the topmost window there.
      try {
        pid = (await this.windowManager.windowsAtPoint(point)).find((w) => w.processId !== undefined)?.processId;
      } catch {
        pid = undefined;
      }
    }
    const candidates = roots.filter((root) => pid === undefined || root.data.app.processId === pid);
    for (const appNode of candidates) {
      let windows: AtspiNode[];
      try {
        windows = (await appNode.children()) as AtspiNode[];
      } catch {
        continue;
      }
      const hits: AtspiNode[] = [];
      for (const window of windows) {
        const data = window.data;
        if (!hasInterface(data, 'Component') || !hasState(data.states, S.Showing)) continue;
        try {
          const r = await this.calls.getExtents(data.ref);
          if (point.x >= r.x && point.y >= r.y && point.x < r.x + r.width && point.y < r.y + r.height)
            hits.push(window);
        } catch {
          continue;
        }
      }
      hits.sort((a, b) => Number(hasState(b.data.states, S.Active)) - Number(hasState(a.data.states, S.Active)));
      const window = hits[0];
      if (!window) continue;
      const chain: AtspiNode[] = [window];
      let current = window.data;
      for (let depth = 0; depth < 200; depth++) {
        let ref: ObjectRef;
        try {
          ref = await this.calls.getAccessibleAtPoint(current.ref, point.x, point.y);
        } catch {
          break;
        }
        if (isNullRef(ref)) break;
        const key = runtimeIdOf(ref);
        if (key === current.key || chain.some((n) => n.runtimeId === key)) break;
        let data = this.store.get(key);
        if (!data || data.stale || data.partial) {
          try {
            const header = await this.loader.fetchHeader(ref);
            if (data) Object.assign(data, header, { stale: false });
            else {
              // The hit may lie deeper than a child (Chromium hit-tests to the leaf): its parent is asked later.
              data = newNodeData(ref, current.app, current.children?.includes(key) ? current.key : undefined, header);
              this.store.put(data);
            }
          } catch {
            break;
          }
        }
        chain.push(this.nodeFor(data));
        if (!hasInterface(data, 'Component')) break;
        current = data;
      }
      return this.withAncestors(chain, window);
    }
    return [];
  }

  /**
   * The hit chain with every ancestor between the window and the deepest hit (Chromium answers GetAccessibleAtPoint
   * on a frame with the deepest element at once), deepest first, ending at the window.
   */
  private async withAncestors(chain: AtspiNode[], window: AtspiNode): Promise<AtspiNode[]> {
    const deepest = chain[chain.length - 1] as AtspiNode;
    const out: AtspiNode[] = [deepest];
    let current = deepest.data;
    for (let depth = 0; depth < 200 && current.key !== window.runtimeId; depth++) {
      const parent = await this.parentOf(current).catch(() => undefined);
      if (!parent || out.some((node) => node.runtimeId === parent.key)) break;
      out.push(this.nodeFor(parent));
      current = parent;
    }
    if (out[out.length - 1]?.runtimeId !== window.runtimeId) return chain.reverse();
    return out;
  }

  /**
   * The element with this runtime id and its ancestors up to its top-level window, deepest first, read as needed (an
   * element an event named before anything loaded it); empty when it is gone or in no window of a known application.
   */
  async ancestryOf(runtimeId: string): Promise<readonly ProviderNode[]> {
    const ref = this.store.get(runtimeId)?.ref ?? refOfRuntimeId(runtimeId);
    if (!ref || ref[1] === ROOT_PATH) return [];
    if (!this.apps.has(ref[0])) await this.roots();
    const app = this.apps.get(ref[0])?.app;
    if (!app || (app.processId !== undefined && this.excluded.has(app.processId))) return [];
    try {
      let current = this.store.get(runtimeId);
      if (!current || current.stale) {
        const header = await this.loader.fetchHeader(ref);
        if (current) Object.assign(current, header, { stale: false });
        else this.store.put((current = newNodeData(ref, app, undefined, header)));
      }
      const out: AtspiNode[] = [this.nodeFor(current)];
      for (let depth = 0; depth < 200; depth++) {
        const parent = await this.parentOf(current);
        if (!parent || out.some((node) => node.runtimeId === parent.key)) return [];
        if (parent.ref[1] === ROOT_PATH) return out;
        out.push(this.nodeFor(parent));
        current = parent;
      }
      return [];
    } catch (error) {
      if (isGoneError(error)) return [];
      throw error;
    }
  }

  /** A node's parent from the store, else asked (and kept); undefined at the top. */
  private async parentOf(data: NodeData): Promise<NodeData | undefined> {
    const held = data.parentKey ? this.store.get(data.parentKey) : undefined;
    if (held) return held;
    const ref = await this.calls.getParent(data.ref);
    if (isNullRef(ref)) return undefined;
    let parent = this.store.get(runtimeIdOf(ref));
    if (!parent) {
      parent = newNodeData(ref, data.app, undefined, await this.loader.fetchHeader(ref));
      this.store.put(parent);
    }
    data.parentKey = parent.key;
    return parent;
  }

  private checkRunning(): void {
    if (this.stopped) throw new InspectorError('provider-unavailable', 'the AT-SPI provider was shut down');
  }

  async shutdown(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.subscription?.stop();
    this.listeners.clear();
    this.uiWatchers.clear();
    this.client.close();
  }
}

/** `atspi://:1.5/org/a11y/atspi/accessible/12` as the object it names. */
function refOfRuntimeId(runtimeId: string): ObjectRef | undefined {
  const match = /^atspi:\/\/([^/]+)(\/.*)$/.exec(runtimeId);
  return match ? [match[1]!, match[2]!] : undefined;
}

/** The node object of this data when one was made. */
function viewOf(data: NodeData): AtspiNode | undefined {
  return data.view as AtspiNode | undefined;
}
