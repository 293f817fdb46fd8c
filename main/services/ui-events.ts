import type { TextProtection, UiEventNode, UiEventRecord, UiEventType } from '../../shared/model/ui-events.js';
import { eventDetail, UI_EVENT_TYPES } from '../../shared/model/ui-events.js';
import {
  DESKTOP_RUNTIME_ID,
  type NodeDescription,
  type ProviderUiEvent,
  type UiTreeProvider,
} from '../core/provider.js';
import type { Runtime } from '../runtime/runtime.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { EventQueue, type EventCounts, type QueuedEvent } from './event-queue.js';
import { SubtreeSelection } from './subtree-selection.js';

/**
 * The one place that turns provider events into the typed, filtered events every front end shows (`watch`, the API's
 * event subscription, the Events panel): each event is described (its node's role and name, read once and kept
 * briefly), filtered by kind and by subtree, and stripped of text, names and values where its node is secure or
 * could not be read. A bounded queue sits in front of that work (see EventQueue): a storm costs dropped and merged
 * events, never unbounded memory or a stalled host.
 */

export interface UiEventWatchOptions {
  /** The kinds to deliver; all when empty or left out. */
  types?: readonly UiEventType[];
  /** Only events of the nodes this XPath selects and their descendants (evaluated again after changes of children). */
  xpath?: string;
  /** Only events of this node (by runtime id) and its descendants; not with `xpath`. */
  within?: string;
  /** Events waiting to be described at most (oldest dropped first). */
  bufferLimit: number;
  /** How long describing a node may take before the event goes out without its role and name. */
  describeTimeoutMs?: number;
  /** Problems that do not end the watch (a subtree that could not be found again). */
  warn?: (message: string) => void;
}

/** How long a node's description is reused for further events (names change; events say so, most of the time). */
const DESCRIPTION_TTL_MS = 1000;
/** Descriptions kept at most; the cache starts over past it. */
const MAX_DESCRIPTIONS = 10_000;
const DEFAULT_DESCRIBE_TIMEOUT_MS = 500;

interface CachedDescription {
  until: number;
  description: Promise<NodeDescription | undefined | 'unread'>;
}

export class UiEventWatch {
  private readonly queue: EventQueue;
  private readonly descriptions = new Map<string, CachedDescription>();
  private readonly stops: Array<() => void> = [];
  private pumping = false;
  private closed = false;
  /** Change marks of the subtree selection, per queued event (see SubtreeSelection.mark). */
  private readonly marks = new WeakMap<QueuedEvent, number>();
  private paused = false;
  private idleWaiters: Array<() => void> = [];

  private constructor(
    private readonly runtime: Runtime,
    private readonly selection: SubtreeSelection | undefined,
    private readonly options: UiEventWatchOptions,
    private readonly deliver: (record: UiEventRecord) => void,
  ) {
    this.queue = new EventQueue(options.bufferLimit);
  }

  /**
   * Starts watching: every provider that reports typed events is asked for the kinds wanted (AT-SPI registers the
   * kinds it does not need itself only now). An XPath that selects other items than elements is a usage error.
   */
  static async start(
    runtime: Runtime,
    xpath: XPathService,
    options: UiEventWatchOptions,
    deliver: (record: UiEventRecord) => void,
  ): Promise<UiEventWatch> {
    const warn = options.warn ?? (() => undefined);
    const selection = options.xpath
      ? await SubtreeSelection.start(runtime, xpath, options.xpath, warn)
      : options.within
        ? await SubtreeSelection.within(runtime, xpath, options.within, warn)
        : undefined;
    const watch = new UiEventWatch(runtime, selection, options, deliver);
    const types = new Set(options.types && options.types.length > 0 ? options.types : UI_EVENT_TYPES);
    for (const provider of runtime.providers) {
      const stop = provider.watchUiEvents?.(types, (event) => watch.receive(provider.descriptor.id, event));
      if (stop) watch.stops.push(stop);
    }
    return watch;
  }

  /** Received, merged and dropped events so far. */
  get counts(): Readonly<EventCounts> {
    return this.queue.counts;
  }

  /** Events waiting to be described and delivered. */
  get waiting(): number {
    return this.queue.size;
  }

  /** While paused, events wait in the buffer (bounded as ever) and go out on resume. */
  setPaused(paused: boolean): void {
    this.paused = paused;
    if (!paused) this.schedule();
  }

  /** Resolves once every event received so far has been delivered or filtered out. */
  idle(): Promise<void> {
    if (!this.pumping && (this.queue.size === 0 || this.paused || this.closed)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const stop of this.stops) stop();
    this.selection?.close();
    this.queue.clear();
    this.settleIdle();
  }

  private receive(providerId: string, event: ProviderUiEvent): void {
    if (this.closed) return;
    this.queue.push(event, providerId, Date.now());
    this.schedule();
  }

  private schedule(): void {
    if (this.pumping || this.paused || this.closed) return;
    this.pumping = true;
    // Events of one D-Bus read arrive together: start after them, so merging sees the whole read.
    setImmediate(() => void this.pump());
  }

  private async pump(): Promise<void> {
    try {
      for (let next = this.take(); next; next = this.take()) {
        const mark = this.marks.get(next);
        const record = await this.recordOf(next, mark);
        if (record && !this.closed) this.deliver(record);
      }
    } finally {
      this.pumping = false;
      if (this.queue.size > 0 && !this.paused && !this.closed) this.schedule();
      else this.settleIdle();
    }
  }

  private take(): QueuedEvent | undefined {
    if (this.paused || this.closed) return undefined;
    const next = this.queue.take();
    if (next && this.selection) this.marks.set(next, this.selection.mark);
    return next;
  }

  private settleIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }

  private async recordOf(queued: QueuedEvent, mark: number | undefined): Promise<UiEventRecord | undefined> {
    const { event, providerId } = queued;
    if (this.selection && !(await this.selection.contains(event.runtimeId, mark ?? this.selection.mark))) {
      return undefined;
    }
    const provider = this.runtime.providers.find((candidate) => candidate.descriptor.id === providerId);
    const description = await this.describe(provider, event.runtimeId);
    this.learn(event, description);
    const protection: TextProtection =
      description === 'unread' || description === undefined ? 'unknown' : description.isSecure ? 'secure' : 'none';
    let child: UiEventNode | null = null;
    if (event.type === 'children-changed' && event.child !== undefined) {
      child = nodeOf(event.child, await this.describe(provider, event.child));
    }
    const node = nodeOf(event.runtimeId, description);
    return {
      time: new Date(queued.time).toISOString(),
      type: event.type,
      runtimeId: event.runtimeId,
      role: node.role,
      name: node.name,
      detail: eventDetail(event, protection, child),
    };
  }

  /** What an event itself tells about its node (a new name; a node gone) keeps the cache true. */
  private learn(event: ProviderUiEvent, description: NodeDescription | undefined | 'unread'): void {
    const known = description && description !== 'unread' ? description : undefined;
    if (event.type === 'name-changed' && known && !known.isSecure && event.name !== undefined) known.name = event.name;
    if (event.type === 'children-changed' && event.change === 'removed' && event.child !== undefined) {
      this.descriptions.delete(event.child);
    }
    if (event.type === 'window-closed' || (event.type === 'state-changed' && event.state === 'defunct')) {
      this.descriptions.delete(event.runtimeId);
    }
  }

  private describe(
    provider: UiTreeProvider | undefined,
    runtimeId: string,
  ): Promise<NodeDescription | undefined | 'unread'> {
    if (runtimeId === DESKTOP_RUNTIME_ID) {
      const { namespace, role, name } = this.runtime.desktop;
      return Promise.resolve({ namespace, role, name, isSecure: false });
    }
    const now = Date.now();
    const cached = this.descriptions.get(runtimeId);
    if (cached && cached.until > now) return cached.description;
    if (this.descriptions.size >= MAX_DESCRIPTIONS) this.descriptions.clear();
    const description = withTimeout(
      provider?.describeNode ? provider.describeNode(runtimeId) : Promise.resolve(undefined),
      this.options.describeTimeoutMs ?? DEFAULT_DESCRIBE_TIMEOUT_MS,
    );
    this.descriptions.set(runtimeId, { until: now + DESCRIPTION_TTL_MS, description });
    return description;
  }
}

function nodeOf(runtimeId: string, description: NodeDescription | undefined | 'unread'): UiEventNode {
  return description === undefined || description === 'unread'
    ? { runtimeId, role: null, name: null }
    : { runtimeId, role: description.role, name: description.name };
}

/** The description, or 'unread' when it could not be read in time (or at all). */
function withTimeout(
  reading: Promise<NodeDescription | undefined>,
  timeoutMs: number,
): Promise<NodeDescription | undefined | 'unread'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('unread'), timeoutMs);
    reading.then(
      (description) => {
        clearTimeout(timer);
        resolve(description ? { ...description } : undefined);
      },
      () => {
        clearTimeout(timer);
        resolve('unread');
      },
    );
  });
}
