import { InspectorError } from '../../shared/model/errors.js';
import { DESKTOP_RUNTIME_ID, DesktopSource, FALLBACK_DESKTOP } from './desktop.js';
import type { RuntimeEventSink } from './events.js';
import { EventDispatcher } from './events.js';
import type { NodeOwner } from './node.js';
import { RuntimeNode } from './node.js';
import type { BackendOptions } from '../core/backend-options.js';
import type { DesktopInfo, PlatformBundle, PlatformConfig } from '../core/platform.js';
import type { ProviderEvent, ProviderNode, ProviderOptions, UiTreeProvider } from '../core/provider.js';
import { chooseBackends, selectPlatformFactory, selectProviderFactories } from '../core/registry.js';

/** A node whose cached data the runtime dropped: its attributes (and name), and its children list when `children`. */
export interface NodeInvalidation {
  node: RuntimeNode;
  children: boolean;
}
/**
 * Called once per step of Runtime.generation, synchronously: the nodes that changed, or 'all' when the whole tree
 * may have (a cache of the tree that saw every step since its copy may update only these nodes).
 */
export type NodeInvalidationListener = (changes: readonly NodeInvalidation[] | 'all') => void;

export interface RuntimeOptions {
  /** Provider ids; empty means the defaults for this OS (never the mock). */
  providers?: readonly string[];
  providerOptions?: ProviderOptions;
  /** Each backend's own options by backend id; a provider given options is used (see chooseBackends). */
  backendOptions?: BackendOptions;
  /**
   * Platform backend by name (`x11`, `mock`); `none` runs providers-only. Default: the platform the named providers
   * pair with, else the detected session.
   */
  platform?: string;
  env?: { readonly [name: string]: string | undefined };
}

/**
 * One live automation session (PlatynUI §4): the platform bundle, the providers and the event pipeline. Every front
 * end (CLI, browser host, Electron shell) reaches the desktop through a Runtime.
 */
export class Runtime implements NodeOwner {
  private readonly nodes = new Map<string, RuntimeNode>();
  private readonly dispatcher = new EventDispatcher();
  private readonly unsubscribers: Array<() => void> = [];
  private readonly treeListeners = new Set<NodeInvalidationListener>();
  private fetched = 0;
  private shutDown = false;
  /** Grows with every change the providers report; caches of the tree keyed by it know when to drop. */
  generation = 0;
  readonly desktop: RuntimeNode;

  private constructor(
    readonly providers: readonly UiTreeProvider[],
    readonly platform: PlatformBundle | undefined,
    readonly desktopInfo: DesktopInfo,
  ) {
    const source = new DesktopSource(desktopInfo, providers);
    this.desktopSource = source;
    this.desktop = new RuntimeNode(this, source, undefined, desktopInfo.technology);
    this.nodes.set(DESKTOP_RUNTIME_ID, this.desktop);
    for (const provider of providers) {
      this.unsubscribers.push(provider.subscribe((event) => this.onProviderEvent(provider.descriptor.id, event)));
    }
  }

  private readonly desktopSource: DesktopSource;

  static async create(options: RuntimeOptions = {}): Promise<Runtime> {
    const env = options.env ?? process.env;
    const backendOptions = options.backendOptions ?? {};
    const choice = chooseBackends(options);
    const config: PlatformConfig = { env, backendOptions };
    if (choice.platform && choice.platform !== 'none') config.backend = choice.platform;
    const platformFactory = choice.platform === 'none' ? undefined : selectPlatformFactory(config);
    const platform = platformFactory ? await platformFactory.create(config) : undefined;
    try {
      const factories = selectProviderFactories(choice.providers, process.platform);
      if (factories.length === 0) {
        throw new InspectorError(
          'provider-unavailable',
          `no accessibility provider is available on ${process.platform}; name one with --provider (e.g. --provider mock)`,
        );
      }
      const providers: UiTreeProvider[] = [];
      try {
        for (const factory of factories) {
          providers.push(
            await factory.create({
              options: options.providerOptions ?? {},
              backendOptions,
              windowManager: platform?.windowManager,
            }),
          );
        }
      } catch (error) {
        await Promise.allSettled(providers.map((provider) => provider.shutdown()));
        throw error;
      }
      const desktopInfo = platform?.desktopInfo ? await platform.desktopInfo.describe() : FALLBACK_DESKTOP;
      return new Runtime(providers, platform, desktopInfo);
    } catch (error) {
      await platform?.shutdown();
      throw error;
    }
  }

  adopt(source: ProviderNode, parent: RuntimeNode, technology: string): RuntimeNode {
    const known = this.nodes.get(source.runtimeId);
    if (known && !known.isRemoved) return known;
    const own =
      parent === this.desktop ? (this.desktopSource.technologyOf(source.runtimeId) ?? technology) : technology;
    const node = new RuntimeNode(this, source, parent, own);
    this.nodes.set(source.runtimeId, node);
    return node;
  }

  /** Every provider makes its applications only as children of the desktop (ProviderDescriptor.applicationsOnlyAtTop). */
  get applicationsOnlyAtTop(): boolean {
    return this.providers.every((provider) => provider.descriptor.applicationsOnlyAtTop === true);
  }

  countFetched(nodes: number): void {
    this.fetched += nodes;
  }

  /** Nodes materialized from providers since the runtime started. */
  get nodesFetched(): number {
    return this.fetched;
  }

  node(runtimeId: string): RuntimeNode | undefined {
    const node = this.nodes.get(runtimeId);
    return node && !node.isRemoved ? node : undefined;
  }

  /** Children as the tree owns them: the desktop lists applications and windows that belong to none. */
  async structuralChildren(node: RuntimeNode): Promise<readonly RuntimeNode[]> {
    const children = await node.children();
    if (node !== this.desktop) return children;
    return children.filter((child) => !this.desktopSource.applicationOwned.has(child.runtimeId));
  }

  /** structuralChildren when they are known without asking anyone (RuntimeNode.peekChildren); undefined otherwise. */
  peekStructuralChildren(node: RuntimeNode): readonly RuntimeNode[] | undefined {
    if (node === this.desktop) return undefined;
    return node.peekChildren();
  }

  /** Where the node lives: the chain of ancestors from the desktop down to it. */
  ancestors(node: RuntimeNode): RuntimeNode[] {
    const chain: RuntimeNode[] = [];
    for (let current = node.parent; current; current = current.parent) chain.unshift(current);
    return chain;
  }

  /**
   * Turns a chain of provider nodes (a top-level window first, then ever deeper elements, as hit testing returns
   * them) into the runtime's nodes by walking down from the desktop; stops where the tree no longer matches.
   */
  async resolveProviderChain(chain: readonly ProviderNode[]): Promise<RuntimeNode[]> {
    const [top, ...rest] = chain;
    if (!top) return [];
    await this.desktop.children();
    let current = this.node(top.runtimeId);
    if (!current) return [];
    const out = [current];
    for (const next of rest) {
      const children: readonly RuntimeNode[] = await current.children().catch((): readonly RuntimeNode[] => []);
      const child = children.find((candidate) => candidate.runtimeId === next.runtimeId);
      if (!child) break;
      out.push(child);
      current = child;
    }
    return out;
  }

  /**
   * The node with this runtime id, loaded down from its top-level window when the tree has not loaded it yet (the
   * element a focus event named); undefined when no provider finds it there.
   */
  async load(runtimeId: string): Promise<RuntimeNode | undefined> {
    const known = this.node(runtimeId);
    if (known) return known;
    for (const provider of this.providers) {
      const ancestry = await provider.ancestryOf?.(runtimeId).catch((): readonly ProviderNode[] => []);
      if (!ancestry || ancestry.length === 0) continue;
      const chain = await this.resolveProviderChain([...ancestry].reverse());
      if (chain.at(-1)?.runtimeId === runtimeId) return chain.at(-1);
    }
    return undefined;
  }

  registerEventSink(sink: RuntimeEventSink): () => void {
    return this.dispatcher.register(sink);
  }

  /** Providers that cannot report changes are refreshed before every query (PlatynUI §5.7). */
  refreshIfBlind(): void {
    if (this.providers.some((provider) => provider.descriptor.eventCapabilities === 'None')) {
      this.invalidateAll();
    }
  }

  invalidateAll(): void {
    this.quietly(() => {
      for (const node of this.nodes.values()) node.invalidate();
    });
    this.step('all');
  }

  /** Set while the runtime invalidates nodes as part of one generation step it reports itself. */
  private quiet = false;

  private quietly(invalidate: () => void): void {
    this.quiet = true;
    try {
      invalidate();
    } finally {
      this.quiet = false;
    }
  }

  /** A node invalidated from outside (a front end's refresh): one generation step with that node. */
  invalidated(node: RuntimeNode, children: boolean): void {
    if (!this.quiet) this.step([{ node, children }]);
  }

  /** Registers a listener told of every generation step (see NodeInvalidationListener); returns its removal. */
  watchTree(listener: NodeInvalidationListener): () => void {
    this.treeListeners.add(listener);
    return () => this.treeListeners.delete(listener);
  }

  private step(changes: readonly NodeInvalidation[] | 'all'): void {
    this.generation++;
    for (const listener of this.treeListeners) listener(changes);
  }

  private onProviderEvent(providerId: string, event: ProviderEvent): void {
    const changes: NodeInvalidation[] = [];
    this.quietly(() => this.applyEvent(event, changes));
    this.step(event.kind === 'TreeInvalidated' ? 'all' : changes);
    this.dispatcher.dispatch({ ...event, providerId });
  }

  private applyEvent(event: ProviderEvent, changes: NodeInvalidation[]): void {
    const changeChildren = (node: RuntimeNode) => {
      node.invalidate();
      changes.push({ node, children: true });
    };
    switch (event.kind) {
      case 'NodeUpdated': {
        const node = this.nodes.get(event.runtimeId);
        // The provider applied the change before announcing it: asking it to re-read would cost a round trip per
        // event and could overwrite the event's value with an older answer.
        node?.invalidate({ children: false, source: false });
        if (node) changes.push({ node, children: false });
        break;
      }
      case 'NodeAdded': {
        const parent = event.parentRuntimeId ? this.nodes.get(event.parentRuntimeId) : this.desktop;
        changeChildren(parent ?? this.desktop);
        if (parent?.namespace === 'app') changeChildren(this.desktop);
        break;
      }
      case 'NodeRemoved': {
        const node = this.nodes.get(event.runtimeId);
        if (node) this.removeSubtree(node);
        const parent = event.parentRuntimeId ? this.nodes.get(event.parentRuntimeId) : node?.parent;
        changeChildren(parent ?? this.desktop);
        if (parent?.namespace === 'app') changeChildren(this.desktop);
        break;
      }
      case 'TreeInvalidated':
        for (const node of this.nodes.values()) if (node !== this.desktop) node.markRemoved();
        this.nodes.clear();
        this.nodes.set(DESKTOP_RUNTIME_ID, this.desktop);
        this.desktop.invalidate();
        break;
    }
  }

  private removeSubtree(node: RuntimeNode): void {
    node.markRemoved();
    this.nodes.delete(node.runtimeId);
    for (const child of node.cachedChildren ?? []) if (child.parent === node) this.removeSubtree(child);
  }

  /** Stops events, shuts every provider down, then the platform. Idempotent. */
  async shutdown(): Promise<void> {
    if (this.shutDown) return;
    this.shutDown = true;
    this.dispatcher.stop();
    for (const unsubscribe of this.unsubscribers) unsubscribe();
    await Promise.allSettled(this.providers.map((provider) => provider.shutdown()));
    await this.platform?.shutdown();
  }
}
