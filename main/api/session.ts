import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import type {
  AccessibilityStatusInfo,
  InspectorEvent,
  NodeSummary,
  ProviderStatusInfo,
  Settings,
  TreeChange,
} from '../../shared/api/schema.js';
import { AttributeNames } from '../../shared/model/attributes.js';
import { InspectorError, toInspectorError } from '../../shared/model/errors.js';
import type { Point, Rect } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { PointerCapture, PointerCaptureEvent } from '../core/platform.js';
import type { ProviderNode } from '../core/provider.js';
import { Runtime, type RuntimeOptions } from '../runtime/runtime.js';
import { XPathService } from '../xpath/xpath-service.js';

/**
 * What every connection of one host shares: the runtime, the XPath service, the settings, the on-screen highlight
 * and the picker (there is one pointer). Connections (dispatchers) come and go; the session lives as long as the host.
 */
export interface SessionOptions {
  runtime: RuntimeOptions;
  /** Where settings persist; default `$XDG_CONFIG_HOME/platynui-inspector/settings.json`. */
  settingsFile?: string;
}

export type SessionListener = (event: InspectorEvent) => void;

const TREE_BATCH_MS = 50;
const TREE_BATCH_MAX = 500;
const FOCUS_REPEAT_MS = 1000;

export function defaultSettingsFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'platynui-inspector', 'settings.json');
}

export class InspectorSession {
  private readonly listeners = new Set<SessionListener>();
  private readonly childCounts = new Map<string, number>();
  private pendingChanges: TreeChange[] = [];
  private overflow = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private settings: Settings;
  private readonly unsubscribe: () => void;
  private closed = false;
  /** The node focus.changed named last, and when: the two events of one focus change announce it once. */
  private focusAnnounced: { node: RuntimeNode; at: number } | undefined;
  /** The connection whose highlight is on screen (cleared when it goes away). */
  highlightOwner: object | undefined;
  picker: Picker | undefined;
  /**
   * Draws highlights when the platform has no highlight device (the Electron shell's overlay windows outside X11);
   * called with undefined to clear.
   */
  highlightFallback: ((request: { rects: Rect[]; durationMs?: number } | undefined) => void) | undefined;
  /** Ends the host and everything it started (`host.stop`); undefined where a page may not stop its host. */
  hostStop: (() => void) | undefined;

  private constructor(
    readonly runtime: Runtime,
    readonly xpath: XPathService,
    private readonly settingsFile: string,
  ) {
    this.settings = readSettings(settingsFile);
    this.unsubscribe = runtime.registerEventSink((event) => {
      if (this.pendingChanges.length >= TREE_BATCH_MAX) this.overflow = true;
      else {
        const change: TreeChange = { kind: event.kind, providerId: event.providerId };
        if ('runtimeId' in event) change.runtimeId = event.runtimeId;
        if ('parentRuntimeId' in event && event.parentRuntimeId) change.parentRuntimeId = event.parentRuntimeId;
        this.pendingChanges.push(change);
      }
      if (event.kind === 'NodeUpdated' && event.attributes?.includes(AttributeNames.IsFocused)) {
        void this.announceFocus(event.runtimeId);
      }
      if (event.kind === 'TreeInvalidated') this.childCounts.clear();
      else if (event.kind !== 'NodeUpdated') {
        this.childCounts.delete(event.parentRuntimeId ?? runtime.desktop.runtimeId);
        if ('runtimeId' in event) this.childCounts.delete(event.runtimeId);
      }
      this.flushTimer ??= setTimeout(() => this.flush(), TREE_BATCH_MS);
    });
  }

  static async open(options: SessionOptions): Promise<InspectorSession> {
    const runtime = await Runtime.create(options.runtime);
    const xpath = new XPathService(runtime);
    try {
      await xpath.warmUp();
    } catch (error) {
      await runtime.shutdown();
      throw error;
    }
    return new InspectorSession(runtime, xpath, options.settingsFile ?? defaultSettingsFile());
  }

  subscribe(listener: SessionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: InspectorEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // one broken connection must not stop the others
      }
    }
  }

  private flush(): void {
    this.flushTimer = undefined;
    if (this.pendingChanges.length === 0 && !this.overflow) return;
    const changes = this.pendingChanges;
    const overflow = this.overflow;
    this.pendingChanges = [];
    this.overflow = false;
    this.emit({ type: 'tree.changed', changes, overflow });
  }

  node(runtimeId: string): RuntimeNode {
    const node = this.runtime.node(runtimeId);
    if (!node) {
      throw new InspectorError(
        'stale-node',
        `node ${runtimeId} is not known any more (it was removed or the tree was rebuilt); refresh its parent`,
        { runtimeId },
      );
    }
    return node;
  }

  async structuralChildren(node: RuntimeNode, refresh = false): Promise<readonly RuntimeNode[]> {
    if (refresh) node.invalidate();
    const children = await this.runtime.structuralChildren(node);
    // Summaries carry the developer id: make it definitive (providers may defer ids until asked).
    await Promise.all(children.map((child) => child.loadId().catch(() => undefined)));
    this.childCounts.set(node.runtimeId, children.length);
    return children;
  }

  /** Emits `focus.changed` when the updated node now has the focus (its IsFocused turned true). */
  private async announceFocus(runtimeId: string): Promise<void> {
    try {
      const node = this.runtime.node(runtimeId);
      if (!node) return;
      const [state] = await node.attributesNamed(AttributeNames.IsFocused);
      const focused = state?.value.type === 'Bool' && state.value.value;
      if (focused && !this.closed && !this.justAnnounced(node)) {
        this.focusAnnounced = { node, at: Date.now() };
        this.emit({ type: 'focus.changed', node: this.summarize(node) });
      }
    } catch {
      // A node that went away while we asked has no focus to report.
    }
  }

  private justAnnounced(node: RuntimeNode): boolean {
    return this.focusAnnounced?.node === node && Date.now() - this.focusAnnounced.at < FOCUS_REPEAT_MS;
  }

  summarize(node: RuntimeNode): NodeSummary {
    const count = this.childCounts.get(node.runtimeId);
    const cached = node.cachedChildren;
    const known = count ?? (cached && node !== this.runtime.desktop ? cached.length : undefined);
    return {
      runtimeId: node.runtimeId,
      namespace: node.namespace,
      role: node.role,
      name: node.name,
      ...(node.id ? { id: node.id } : {}),
      revision: node.revision,
      ...(known !== undefined ? { childCount: known } : {}),
      hasChildren: known === undefined ? true : known > 0,
      stale: node.isRemoved,
      technology: node.technology,
    };
  }

  async boundsOf(node: RuntimeNode): Promise<Rect | undefined> {
    const entry = await node.attribute('control', AttributeNames.Bounds).catch(() => undefined);
    return entry?.value.type === 'Rect' ? entry.value.value : undefined;
  }

  async highlight(owner: object, rects: Rect[], durationMs?: number): Promise<boolean> {
    const device = this.runtime.platform?.highlight;
    if (!device) {
      if (!this.highlightFallback) return false;
      this.highlightOwner = owner;
      this.highlightFallback(rects.length > 0 ? { rects, ...(durationMs ? { durationMs } : {}) } : undefined);
      return true;
    }
    this.highlightOwner = owner;
    if (rects.length === 0) await device.clear();
    else await device.highlight({ rects, ...(durationMs ? { durationMs } : {}) });
    return true;
  }

  async clearHighlight(owner?: object): Promise<boolean> {
    if (owner && this.highlightOwner !== owner) return false;
    this.highlightOwner = undefined;
    const device = this.runtime.platform?.highlight;
    if (!device) {
      this.highlightFallback?.(undefined);
      return this.highlightFallback !== undefined;
    }
    await device.clear().catch(() => undefined);
    return true;
  }

  getSettings(): Settings {
    return { ...this.settings };
  }

  setSettings(values: Settings): Settings {
    const next: Settings = { ...this.settings };
    for (const [key, value] of Object.entries(values)) {
      if (value === null) delete next[key];
      else next[key] = value;
    }
    this.settings = next;
    writeSettings(this.settingsFile, next);
    return { ...next };
  }

  providerStatus(): ProviderStatusInfo[] {
    return this.runtime.providers.map((provider) => {
      const status = provider.status();
      return {
        id: provider.descriptor.id,
        displayName: provider.descriptor.displayName,
        technology: provider.descriptor.technology,
        state: status.state,
        ...(status.message ? { message: status.message } : {}),
      };
    });
  }

  async accessibility(enable: boolean): Promise<AccessibilityStatusInfo> {
    const usesAtspi = this.runtime.providers.some((provider) => provider.descriptor.id === 'atspi');
    if (process.platform !== 'linux' || !usesAtspi) {
      if (enable) {
        throw new InspectorError(
          'unsupported',
          'switching accessibility on is an AT-SPI (Linux) feature; this session does not use the AT-SPI provider',
        );
      }
      return { enabled: true, canEnable: false, message: 'this session has no accessibility switch' };
    }
    const atspi = await import('../providers/atspi/index.js');
    if (enable) await atspi.enableAccessibility();
    const status = await atspi.getAccessibilityStatus();
    return {
      enabled: status.enabled,
      canEnable: true,
      ...(status.busAddress ? { busAddress: status.busAddress } : {}),
      message: status.message,
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.unsubscribe();
    this.picker?.stop('the host is shutting down');
    this.listeners.clear();
    await this.clearHighlight();
    await this.xpath.close();
    await this.runtime.shutdown();
  }
}

function readSettings(file: string): Settings {
  try {
    const data = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    return data && typeof data === 'object' && !Array.isArray(data) ? (data as Settings) : {};
  } catch {
    return {};
  }
}

function writeSettings(file: string, settings: Settings): void {
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, file);
  } catch (error) {
    throw new InspectorError('internal', `settings could not be saved to ${file}: ${toInspectorError(error).message}`);
  }
}

function contains(rect: Rect | undefined, point: Point): boolean {
  return (
    !!rect && point.x >= rect.x && point.y >= rect.y && point.x < rect.x + rect.width && point.y < rect.y + rect.height
  );
}

/**
 * Follows the pointer and reports the element under it. Hit testing goes through the provider (AT-SPI
 * GetAccessibleAtPoint) when it can, else through the Bounds of the nodes in the tree. The stack at the point is kept
 * so that the wheel or arrow keys can move between overlapping elements.
 */
export class Picker {
  private timer: NodeJS.Timeout | undefined;
  private last: Point | undefined;
  private stack: RuntimeNode[] = [];
  private depth = 0;
  private busy = false;
  private stopped = false;
  private ticking: Promise<void> | undefined;
  private capture: PointerCapture | undefined;

  constructor(
    private readonly session: InspectorSession,
    private readonly owner: object,
    private readonly send: (event: InspectorEvent) => void,
    private readonly intervalMs: number,
  ) {}

  /**
   * Starts following the pointer and, where the platform can, captures it: then a left click selects, the wheel
   * cycles, a right click or Escape cancels, and none of it reaches the application under the pointer.
   */
  async start(): Promise<{ clickSelects: boolean; clickNote?: string }> {
    const platform = this.session.runtime.platform;
    if (!platform?.pointer) {
      throw new InspectorError('unsupported', 'picking needs a pointer device, and this platform has none');
    }
    this.timer = setInterval(() => this.schedule(), this.intervalMs);
    this.schedule();
    const device = platform.pointerCapture;
    if (!device) {
      const reason = platform.unavailable.find((u) => u.device === 'pointerCapture')?.reason;
      return { clickSelects: false, clickNote: reason ?? 'this platform cannot capture the pointer' };
    }
    try {
      const capture = await device.capture((event) => this.onCaptured(event));
      if (this.stopped) await capture.release();
      else this.capture = capture;
      return { clickSelects: true };
    } catch (error) {
      return { clickSelects: false, clickNote: toInspectorError(error).message };
    }
  }

  private onCaptured(event: PointerCaptureEvent): void {
    if (this.stopped) return;
    if (event.type === 'key') this.stop('cancelled');
    else if (event.type === 'wheel') this.cycle(event.deltaY > 0 ? 1 : -1);
    else if (event.state !== 'release') return;
    else if (event.button === 'right') this.stop('cancelled');
    else if (event.button === 'left') {
      // A click on the inspector's own window (its Pick button, say) cannot select an element behind it.
      if (event.onOwnWindow) this.stop('cancelled: the click was on the inspector');
      else void this.selectAt(event.point);
    }
  }

  /** Selects the element at the clicked point: the one shown (and cycled to) when the pointer has not moved. */
  private async selectAt(point: Point): Promise<void> {
    await this.ticking;
    if (this.stopped) return;
    if (!this.last || this.last.x !== point.x || this.last.y !== point.y || this.stack.length === 0) {
      this.busy = true;
      try {
        this.setStack(await this.hitTest(point).catch((): RuntimeNode[] => []));
        this.last = point;
      } finally {
        this.busy = false;
      }
    }
    if (!this.stopped) this.select();
  }

  private schedule(): void {
    if (this.busy || this.stopped) return;
    this.ticking = this.tick();
  }

  get current(): RuntimeNode | undefined {
    return this.stack[this.depth];
  }

  belongsTo(owner: object): boolean {
    return this.owner === owner;
  }

  cycle(delta: number): number {
    if (this.stack.length === 0) return 0;
    this.depth = Math.max(0, Math.min(this.stack.length - 1, this.depth - delta));
    void this.report();
    return this.depth;
  }

  private async tick(force = false): Promise<void> {
    if (this.busy || this.stopped) return;
    const pointer = this.session.runtime.platform?.pointer;
    if (!pointer) return;
    this.busy = true;
    try {
      const point = await pointer.position();
      if (!force && this.last && this.last.x === point.x && this.last.y === point.y) return;
      this.last = point;
      this.setStack(await this.hitTest(point));
      await this.report();
    } catch {
      // the pointer or an application did not answer; the next tick tries again
    } finally {
      this.busy = false;
    }
  }

  /** A new stack at the pointer; the same elements as before (the pointer moved within one) keep the cycled depth. */
  private setStack(stack: RuntimeNode[]): void {
    const same =
      stack.length === this.stack.length && stack.every((node, i) => node.runtimeId === this.stack[i]?.runtimeId);
    this.stack = stack;
    if (!same) this.depth = 0;
  }

  private async report(): Promise<void> {
    if (this.stopped || !this.last) return;
    const node = this.current;
    const bounds = node ? await this.session.boundsOf(node) : undefined;
    if (this.stopped) return;
    if (bounds) await this.session.highlight(this.owner, [bounds]).catch(() => undefined);
    this.send({
      type: 'pick.hover',
      node: node ? this.session.summarize(node) : null,
      ...(bounds ? { bounds } : {}),
      point: this.last,
      depth: this.depth,
      stackSize: this.stack.length,
    });
  }

  /** Deepest first. */
  private async hitTest(point: Point): Promise<RuntimeNode[]> {
    const runtime = this.session.runtime;
    const windows = (await runtime.platform?.windowManager?.windowsAtPoint(point).catch(() => [])) ?? [];
    const processId = windows[0]?.processId;
    for (const provider of runtime.providers) {
      if (!provider.nodesAtPoint) continue;
      const hits = await provider.nodesAtPoint(point, processId).catch((): readonly ProviderNode[] => []);
      if (hits.length === 0) continue;
      const resolved = await this.session.runtime.resolveProviderChain([...hits].reverse());
      if (resolved.length > 0) return resolved.reverse();
    }
    return this.hitTestByBounds(point);
  }

  private async hitTestByBounds(point: Point): Promise<RuntimeNode[]> {
    const runtime = this.session.runtime;
    let budget = 5000;
    const top = await runtime.desktop.children();
    const windows = top.filter((node) => node.namespace !== 'app');
    let best: RuntimeNode[] = [];
    for (const window of windows) {
      if (!contains(await this.session.boundsOf(window), point)) continue;
      const chain = [window];
      let current = window;
      for (;;) {
        const children = await current.children().catch((): readonly RuntimeNode[] => []);
        let next: RuntimeNode | undefined;
        for (const child of children) {
          if (--budget <= 0) break;
          if (contains(await this.session.boundsOf(child), point)) next = child;
        }
        if (!next) break;
        chain.push(next);
        current = next;
      }
      best = chain;
      break;
    }
    return best.reverse();
  }

  select(): RuntimeNode | undefined {
    const node = this.current;
    if (node) this.send({ type: 'pick.selected', node: this.session.summarize(node) });
    this.stop(node ? 'selected' : 'stopped');
    return node;
  }

  stop(reason: string): void {
    if (this.stopped) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    void this.capture?.release().catch(() => undefined);
    this.capture = undefined;
    if (this.session.picker === this) this.session.picker = undefined;
    void this.session.clearHighlight(this.owner);
    this.send({ type: 'pick.stopped', reason });
  }
}
