import type {
  AccessibilityStatusInfo,
  InspectorEvent,
  NodeSummary,
  ProviderStatusInfo,
  Settings,
  TreeChange,
} from '../../shared/api/schema.js';
import { AttributeNames } from '../../shared/model/attributes.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { Rect } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';
import { Runtime, type RuntimeOptions } from '../runtime/runtime.js';
import { accessibilityStatus, accessibilitySwitchOf } from '../services/accessibility-status.js';
import { boundsOf } from '../services/bounds.js';
import { Picking } from '../services/picking.js';
import { providerStatus } from '../services/provider-status.js';
import { RecordingControl } from '../services/recording-control.js';
import { defaultSettingsFile, SettingsStore } from '../services/settings.js';
import { XPathService } from '../xpath/xpath-service.js';
import { resolveLimits, type HostLimits } from './limits.js';
import { FocusAnnouncer } from './focus-announcer.js';
import { HighlightOwnership, type HighlightFallback } from './highlight-ownership.js';
import { NodeSummaries } from './node-summaries.js';
import { TreeWarmer } from '../services/tree-warmer.js';
import { TreeChangeBatcher } from './tree-change-batcher.js';

export { defaultSettingsFile } from '../services/settings.js';

/**
 * What every connection of one host shares: the runtime, the XPath service, the settings, the on-screen highlight
 * and the picking (there is one pointer). Connections (dispatchers) come and go; the context lives as long as the host.
 */
export interface HostContextOptions {
  runtime: RuntimeOptions;
  /** Where settings persist; default `$XDG_CONFIG_HOME/platynui-inspector/settings.json`. */
  settingsFile?: string;
  /** Limits from the command line; they win over the settings keys `limits.<name>` (see limits.ts). */
  limits?: Partial<HostLimits>;
  /** Where the context reports what it could not do (a bad setting, a settings file moved aside). */
  warn?: (message: string) => void;
  /** The settings of another context to share (an opened snapshot uses the live context's). */
  settings?: SettingsStore;
  /** The context shows this snapshot, read-only (see openSnapshot). */
  snapshotName?: string;
  /**
   * An interactive host (serve, the Electron shell): load the applications' trees and the locator attributes in
   * the background once the desktop's children were listed (see TreeWarmer).
   */
  warmTree?: boolean;
}

export type HostEventListener = (event: InspectorEvent) => void;

export class HostContext {
  private readonly listeners = new Set<HostEventListener>();
  private readonly summaries: NodeSummaries;
  private readonly changes: TreeChangeBatcher;
  private readonly focus: FocusAnnouncer;
  private readonly highlights: HighlightOwnership;
  private readonly unsubscribe: () => void;
  private closed = false;
  /** The host's one picking (there is one pointer). */
  readonly picking: Picking;
  /** Ends the host and everything it started (`host.stop`); undefined where a page may not stop its host. */
  hostStop: (() => void) | undefined;
  /** The snapshot this context shows, read-only and offline; undefined for a live context. */
  snapshotName: string | undefined;
  /** Loads the tree in the background once the desktop was listed (interactive hosts only). */
  warmer: TreeWarmer | undefined;
  /** The host's one recording of the user's input (`recording.*`). */
  readonly recording: RecordingControl;

  private constructor(
    readonly runtime: Runtime,
    readonly xpath: XPathService,
    private readonly settings: SettingsStore,
    private readonly limitOverrides: Partial<HostLimits>,
  ) {
    this.summaries = new NodeSummaries(runtime);
    this.recording = new RecordingControl(runtime, xpath, (change) =>
      this.emit({ type: 'recording.changed', ...change }),
    );
    this.highlights = new HighlightOwnership(() => runtime.platform?.highlight);
    this.picking = new Picking(this);
    this.changes = new TreeChangeBatcher((changes, overflow) => this.emit({ type: 'tree.changed', changes, overflow }));
    this.focus = new FocusAnnouncer((node) => {
      if (!this.closed) this.emit({ type: 'focus.changed', node: this.summarize(node) });
    });
    this.unsubscribe = runtime.registerEventSink((event) => {
      const change: TreeChange = { kind: event.kind, providerId: event.providerId };
      if ('runtimeId' in event) change.runtimeId = event.runtimeId;
      if ('parentRuntimeId' in event && event.parentRuntimeId) change.parentRuntimeId = event.parentRuntimeId;
      this.changes.add(change);
      if (event.kind === 'NodeUpdated' && event.attributes?.includes(AttributeNames.IsFocused)) {
        const node = runtime.node(event.runtimeId);
        if (node) void this.focus.updated(node);
      }
      this.summaries.changed(event);
    });
  }

  static async open(options: HostContextOptions): Promise<HostContext> {
    const warn = options.warn ?? ((message: string) => process.stderr.write(`platynui-inspector: ${message}\n`));
    const overrides = options.limits ?? {};
    const settingsLimit = resolveLimits({}, overrides).maxSettingsBytes;
    const store =
      options.settings ?? new SettingsStore(options.settingsFile ?? defaultSettingsFile(), settingsLimit, warn);
    const limits = resolveLimits(store.get(), overrides, warn);
    const runtime = await Runtime.create(options.runtime);
    const xpath = new XPathService(runtime, { workers: limits.xpathWorkers, workerMemoryMb: limits.workerMemoryMb });
    try {
      await xpath.warmUp();
    } catch (error) {
      await runtime.shutdown();
      throw error;
    }
    const context = new HostContext(runtime, xpath, store, overrides);
    context.snapshotName = options.snapshotName;
    if (options.warmTree) {
      context.warmer = new TreeWarmer(runtime, xpath, () => context.limits.evaluationTimeoutMs);
      // The first page's first rows are the desktop's children: listed now, before any page asks (the warm-up waits
      // for a page's own listing, so that it never holds the host while a page loads).
      void context.summaries.structuralChildren(runtime.desktop).catch(() => undefined);
    }
    return context;
  }

  /**
   * A read-only context over a snapshot's text: the mock provider behind it, no platform (nothing to pick, highlight
   * or act on), one XPath worker, this context's settings and limits. Errors in the text name `name`, line and column.
   */
  openSnapshot(xml: string, name: string): Promise<HostContext> {
    return HostContext.open({
      runtime: { providers: ['mock'], platform: 'none', backendOptions: { mock: { text: xml, source: name } } },
      settings: this.settings,
      limits: { ...this.limitOverrides, xpathWorkers: 1 },
      snapshotName: name,
    });
  }

  /** The limits in force now: defaults, the settings keys `limits.<name>`, the command line. */
  get limits(): HostLimits {
    return resolveLimits(this.settings.get(), this.limitOverrides);
  }

  subscribe(listener: HostEventListener): () => void {
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

  structuralChildren(node: RuntimeNode, refresh = false): Promise<readonly RuntimeNode[]> {
    const listed = this.summaries.structuralChildren(node, refresh);
    if (this.warmer && node === this.runtime.desktop)
      void listed.then(
        () => this.warmer?.desktopListed(),
        () => undefined,
      );
    return listed;
  }

  summarize(node: RuntimeNode): NodeSummary {
    return this.summaries.summarize(node);
  }

  boundsOf(node: RuntimeNode): Promise<Rect | undefined> {
    return boundsOf(node);
  }

  /** The connection whose highlight is on screen (cleared when it goes away). */
  get highlightOwner(): object | undefined {
    return this.highlights.owner;
  }

  /**
   * Draws highlights when the platform has no highlight device (the Electron shell's overlay windows outside X11);
   * called with undefined to clear.
   */
  get highlightFallback(): HighlightFallback | undefined {
    return this.highlights.fallback;
  }

  set highlightFallback(fallback: HighlightFallback | undefined) {
    this.highlights.fallback = fallback;
  }

  highlight(owner: object, rects: Rect[], durationMs?: number): Promise<boolean> {
    return this.highlights.show(owner, rects, durationMs);
  }

  clearHighlight(owner?: object): Promise<boolean> {
    return this.highlights.clear(owner);
  }

  getSettings(): Settings {
    return this.settings.get();
  }

  /** Merges the values; refused whole when they pass the size limit. Written to disk soon after, coalesced. */
  setSettings(values: Settings): { changed: string[]; bytes: number } {
    return this.settings.set(values);
  }

  providerStatus(): ProviderStatusInfo[] {
    return providerStatus(this.runtime);
  }

  accessibility(enable: boolean): Promise<AccessibilityStatusInfo> {
    const providerIds = this.runtime.providers.map((provider) => provider.descriptor.id);
    return accessibilityStatus(accessibilitySwitchOf(providerIds), enable);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.warmer?.stop();
    this.changes.close();
    this.unsubscribe();
    this.picking.close('the host is shutting down');
    await this.recording.close();
    this.listeners.clear();
    await this.clearHighlight();
    await this.settings.flush();
    await this.xpath.close();
    await this.runtime.shutdown();
  }
}
