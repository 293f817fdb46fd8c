import type { AtspiCalls, CacheItem, ObjectRef, TreeEntry } from './atspi-calls.js';
import {
  ID_TREE_PROPERTIES,
  IFACE,
  NAME_TREE_PROPERTIES,
  isNullRef,
  SAFE_TREE_PROPERTIES,
  TREE_PROPERTIES_WITH_ATTRIBUTES,
  treeEntryAttributes,
  treeEntryTextState,
  STRUCTURE_TREE_PROPERTIES,
} from './atspi-calls.js';
import { isGoneError, isNotRespondingError } from '../../dbus/dbus-client.js';
import { eachAtOnce } from '../../../shared/gate.js';
import type { ApplicationData, NodeData, NodeHeader } from './node-data.js';
import { internInterfaces, newNodeData, runtimeIdOf } from './node-data.js';
import { secureByAttributes } from './node.js';
import { ATSPI_ROLE } from './roles.js';

/** Nodes whose headers are read at once when the cache missed them (one to five calls each; the window holds 192). */
const HEADERS_READ_AT_ONCE = 64;
/**
 * Nodes left partial whose roles are read at once (one call each): more than the D-Bus client's window (192), so its
 * queue refills the window in bursts instead of one call per answer. 10,220 role reads of the Chromium page cost this
 * process about 175 ms of CPU against 290 ms at 96 at once, the page's own time the same (load 2.5-3).
 */
const ROLES_READ_AT_ONCE = 512;
/**
 * How long after a bulk load its partial nodes start to be completed in the background: reading them at once
 * competed with the query waiting for the load (the XPath walk and the calls share the thread).
 */
const BACKGROUND_COMPLETION_DELAY_MS = 1000;
/** From this many nodes the cache lacks on, a bulk load leaves their states and interfaces for later (partial). */
const PARTIAL_FROM_NODES = 1000;
/**
 * Partial nodes completed at once in the background (two calls each): few, so that a reader's own calls (a recorder
 * deciding within a key's 300 ms) find the application's queue short.
 */
const COMPLETED_AT_ONCE = 16;
/** Reads of a partial node's states at most, while state events keep arriving during them. */
const MAX_COMPLETION_READS = 3;
/** The interfaces of a partial node until they are read. */
const NO_INTERFACES = internInterfaces([]);

/**
 * Loads the tree: in bulk where an application offers it (`Cache.GetItems` when the cache is complete, otherwise
 * `Collection.GetTree` for the structure with named safe properties and the cache, filled up by pipelined calls, for
 * role and states), or lazily node by node with pipelined `GetChildren` calls. Cycles and absurd child counts are
 * detected and reported instead of followed.
 */

/** More children than this under one element is treated as broken data; the rest is cut off and reported. */
export const MAX_CHILDREN = 50_000;
/** Deeper than this is treated as a cycle the ids did not reveal. */
export const MAX_DEPTH = 1_000;

export class NodeStore {
  readonly nodes = new Map<string, NodeData>();

  get(key: string): NodeData | undefined {
    return this.nodes.get(key);
  }

  put(data: NodeData): void {
    this.nodes.set(data.key, data);
  }

  /** Marks a node and everything below it invalid and forgets them. */
  removeSubtree(key: string): void {
    const stack = [key];
    while (stack.length > 0) {
      const current = this.nodes.get(stack.pop() as string);
      if (!current) continue;
      current.invalid = true;
      this.nodes.delete(current.key);
      if (current.children) stack.push(...current.children);
    }
  }

  /** Marks every node of an application invalid and forgets them. */
  removeApplication(app: ApplicationData): void {
    for (const [key, data] of this.nodes) {
      if (data.app === app) {
        data.invalid = true;
        this.nodes.delete(key);
      }
    }
  }

  depthOf(data: NodeData): number {
    let depth = 0;
    let current: NodeData | undefined = data;
    while (current?.parentKey && depth <= MAX_DEPTH) {
      current = this.nodes.get(current.parentKey);
      depth++;
    }
    return depth;
  }

  isAncestorOrSelf(candidateKey: string, data: NodeData): boolean {
    let current: NodeData | undefined = data;
    let steps = 0;
    while (current && steps <= MAX_DEPTH) {
      if (current.key === candidateKey) return true;
      current = current.parentKey ? this.nodes.get(current.parentKey) : undefined;
      steps++;
    }
    return false;
  }
}

export interface LoaderOptions {
  /** Timeout for the bulk calls that return a whole tree (they legitimately take longer than one call). */
  bulkTimeoutMs: number;
  /** From this many nodes the cache lacks on, their states and interfaces are read later (default 1000). */
  partialFromNodes?: number;
}

export class TreeLoader {
  constructor(
    private readonly calls: AtspiCalls,
    private readonly store: NodeStore,
    private readonly options: LoaderOptions,
  ) {}

  /** Header completions in flight (completeHeader), one per partial node. */
  private readonly completing = new Map<NodeData, { promise: Promise<void>; stateChanged: boolean }>();
  /** Per application, its background completion waiting for its timer (completeInBackground): starts it at once. */
  private readonly scheduled = new Map<ApplicationData, () => void>();

  /** Role, name, states, interfaces, child count, description and id of one object, in pipelined calls. */
  async fetchHeader(ref: ObjectRef): Promise<NodeHeader> {
    const c = this.calls;
    const [role, name, states, interfaces, childCount, description, accessibleId] = await Promise.all([
      c.getRole(ref),
      c.getName(ref),
      c.getState(ref),
      c.getInterfaces(ref),
      c.getChildCount(ref),
      c.getDescription(ref),
      c.getAccessibleId(ref),
    ]);
    return { role, name, states, interfaces, childCount, description, accessibleId, partial: false };
  }

  /**
   * Reads the states and interfaces of a node a bulk load left partial (once, however many callers wait for it).
   * A state event that arrives while the read runs may be newer than its answer (the answer comes straight from the
   * application, the event through the bus): the states are read again then.
   */
  completeHeader(data: NodeData): Promise<void> {
    if (!data.partial) return Promise.resolve();
    const promise = this.readPartial(data);
    // One node needed: a walk (a snapshot) needs the next ones too, so the background completion starts now, behind
    // the nodes asked for in the same turn (a node and its parent).
    queueMicrotask(() => this.scheduled.get(data.app)?.());
    return promise;
  }

  private readPartial(data: NodeData): Promise<void> {
    const running = this.completing.get(data);
    if (running) return running.promise;
    const entry = { promise: Promise.resolve(), stateChanged: false };
    const read = async () => {
      for (let attempt = 1; ; attempt++) {
        entry.stateChanged = false;
        const [states, interfaces] = await Promise.all([
          this.calls.getState(data.ref),
          this.calls.getInterfaces(data.ref),
        ]);
        if (!data.partial) return;
        if (entry.stateChanged && attempt < MAX_COMPLETION_READS) continue;
        data.states = states;
        data.interfaces = interfaces;
        data.partial = false;
        return;
      }
    };
    entry.promise = read().finally(() => this.completing.delete(data));
    this.completing.set(data, entry);
    return entry.promise;
  }

  /** A state event for a node: a completion reading it reads again (see completeHeader). */
  stateChanged(data: NodeData): void {
    const running = this.completing.get(data);
    if (running) running.stateChanged = true;
  }

  /**
   * Completes partial nodes in the background once the query that caused the load had its turn (a one-shot command
   * is gone by then; the timer does not keep it alive), or as soon as anyone needs one (completeHeader), a window of
   * nodes at a time in the tree's order; a node needed meanwhile is read at once and skipped here. Failures leave a
   * node partial (the next reader tries again).
   */
  private completeInBackground(app: ApplicationData, nodes: readonly NodeData[]): void {
    if (nodes.length === 0) return;
    const start = () => {
      clearTimeout(timer);
      if (this.scheduled.get(app) === start) this.scheduled.delete(app);
      void eachAtOnce(nodes, COMPLETED_AT_ONCE, async (data) => {
        if (data.partial && !data.invalid && !this.calls.client.isClosed)
          await this.readPartial(data).catch(() => undefined);
      });
    };
    const timer = setTimeout(start, BACKGROUND_COMPLETION_DELAY_MS);
    timer.unref();
    this.scheduled.set(app, start);
  }

  /** Re-reads a stale node's header in place. */
  async refreshHeader(data: NodeData): Promise<void> {
    const header = await this.fetchHeader(data.ref);
    Object.assign(data, header);
    data.stale = false;
  }

  /**
   * How an application's children are listed on a lazy walk: GetChildren, one call per parent, except where it
   * disagrees with what libatspi shows. GTK 4's GetChildren lists widget children (a notebook's page contents
   * without the page panels holding them) while ChildCount and GetChildAtIndex list the accessible children.
   */
  private listingOf(app: NodeData['app']): Promise<'GetChildren' | 'GetChildAtIndex'> {
    app.listing ??= Promise.all([this.calls.getToolkitName(app.root), this.calls.getToolkitVersion(app.root)]).then(
      ([toolkit, version]) =>
        toolkit.toUpperCase() === 'GTK' && Number.parseInt(version, 10) >= 4 ? 'GetChildAtIndex' : 'GetChildren',
      (error: unknown) => {
        if (!isNotRespondingError(error)) return 'GetChildren' as const;
        app.listing = undefined;
        throw error;
      },
    );
    return app.listing;
  }

  /** The children by index (ChildCount, then GetChildAtIndex for each, pipelined), at most MAX_CHILDREN + 1. */
  private async childrenByIndex(data: NodeData): Promise<ObjectRef[]> {
    const count = Math.min(await this.calls.getChildCount(data.ref), MAX_CHILDREN + 1);
    return Promise.all(Array.from({ length: Math.max(0, count) }, (_, i) => this.calls.getChildAtIndex(data.ref, i)));
  }

  /** Loads the children of one node lazily (listed, then the headers of unknown children in parallel). */
  async loadChildren(data: NodeData): Promise<void> {
    let refs =
      (await this.listingOf(data.app)) === 'GetChildAtIndex'
        ? await this.childrenByIndex(data)
        : await this.calls.getChildren(data.ref);
    if (refs.length > MAX_CHILDREN) {
      data.app.problems.push(
        `${data.key} reports ${refs.length} children; only the first ${MAX_CHILDREN} are shown (absurd child count)`,
      );
      refs = refs.slice(0, MAX_CHILDREN);
    }
    if (this.store.depthOf(data) >= MAX_DEPTH) {
      data.app.problems.push(`${data.key} is nested deeper than ${MAX_DEPTH} levels; its children are not followed`);
      data.children = [];
      return;
    }
    const seen = new Set<string>();
    const keep: ObjectRef[] = [];
    for (const ref of refs) {
      if (isNullRef(ref)) continue;
      const key = runtimeIdOf(ref);
      if (seen.has(key)) continue;
      if (this.store.isAncestorOrSelf(key, data)) {
        data.app.problems.push(`cycle: ${key} is listed as a child of its own descendant ${data.key}`);
        continue;
      }
      seen.add(key);
      keep.push(ref);
    }
    const results = await Promise.allSettled(
      keep.map(async (ref) => {
        const key = runtimeIdOf(ref);
        const known = this.store.get(key);
        if (known && !known.stale && !known.invalid) {
          known.parentKey = data.key;
          return known;
        }
        const header = await this.fetchHeader(ref);
        const child = newNodeData(ref, data.app, data.key, header);
        this.store.put(child);
        return child;
      }),
    );
    const children: string[] = [];
    for (const result of results) {
      if (result.status === 'fulfilled') {
        children.push(result.value.key);
      } else if (isNotRespondingError(result.reason)) {
        throw result.reason;
      } else if (!isGoneError(result.reason)) {
        // A child that cannot be read for another reason is left out rather than failing its parent.
        continue;
      }
    }
    data.children = children;
    data.childCount = children.length;
  }

  /**
   * Loads an application's whole tree in bulk when it can; falls back to lazy loading ('lazy') when it cannot.
   * Never asks for unnamed data: GetTree gets named safe properties only.
   */
  async bulkLoad(root: NodeData): Promise<void> {
    const app = root.app;
    const timeoutMs = this.options.bulkTimeoutMs;
    const cacheCall = () =>
      this.calls.getCacheItems(app.busName, timeoutMs).catch((error: unknown) => {
        if (isNotRespondingError(error)) throw error;
        return undefined;
      });
    const hasCollection = root.interfaces.includes(IFACE.Collection);
    const treeCall = (properties: readonly string[]) =>
      hasCollection
        ? this.calls.getTree(root.ref, timeoutMs, properties).catch((error: unknown) => {
            if (isNotRespondingError(error)) throw error;
            return undefined;
          })
        : Promise.resolve(undefined);
    // A complete cache (a walked Chromium, GTK 4) gives structure, role, name, states and interfaces in one call.
    // The developer ids are not in it: they are read when someone asks for them (loadIds), or right away once
    // anyone has asked for this application's ids before.
    // Decided once: a caller asking for ids while this load runs waits for it and then reads them (loadIds).
    const wantIds = app.idsWanted;
    // Every attribute will be read: GetTree brings the object attributes (one call instead of one per node).
    const wantAttributes = app.attributesWanted === true;
    app.attributesWanted = false;
    const treeProperties = wantAttributes ? TREE_PROPERTIES_WITH_ATTRIBUTES : SAFE_TREE_PROPERTIES;
    // Ids wanted: GetTree (structure and ids) goes out right after the cache call, so the application answers it
    // while this side decodes the cache; it serves for the ids when the cache is complete, for the structure if not.
    const cached = cacheCall();
    const early = wantIds || wantAttributes ? treeCall(treeProperties) : undefined;
    early?.catch(() => undefined);
    const items = await cached;
    let structure = items ? structureFromCache(items, root.ref, root.childCount) : undefined;
    let recache: Promise<CacheItem[] | undefined> | undefined;
    let tree: TreeEntry[] | undefined;
    let loadedBy: string;
    let idsFromTree = false;
    /** Settles once the names of the second GetTree are in the entries (when one went out). */
    let namesAdded: Promise<unknown> | undefined;
    if (structure) {
      loadedBy = 'Cache.GetItems';
      if (early) {
        tree = await early;
        idsFromTree = tree !== undefined;
      }
    } else {
      // Structure from GetTree where the application implements Collection: authoritative, and it makes a lazy
      // application such as Chromium create its objects; role and states from the cache, asked again when it was
      // partial or absent before the walk created the objects. A partial cache is never trusted for structure.
      const entries = await (early ?? treeCall(STRUCTURE_TREE_PROPERTIES));
      tree = entries;
      if (tree) {
        const fromTree = structureFromTree(tree, root.ref);
        // Cycles and absurd counts are the application's problems; a GetTree that does not add up (GTK 3 answers
        // from its partial cache) only means the tree is walked instead.
        if (fromTree.problem && /cycle|absurd/.test(fromTree.problem)) app.problems.push(fromTree.problem);
        structure = fromTree.structure;
      }
      if (!structure) {
        app.bulk = 'lazy';
        app.loadedBy = 'GetChildren';
        return;
      }
      idsFromTree = true;
      loadedBy = 'Collection.GetTree+Cache.GetItems';
      const inCache = new Set<string>();
      for (const item of items ?? []) inCache.add(item.key);
      let missing = 0;
      for (const key of structure.keys()) if (!inCache.has(key)) missing++;
      if (missing > 1) {
        recache = cacheCall();
        recache.catch(() => undefined);
      }
      // The early GetTree (for the ids, beside the cache call) brought no names: where the cache lacks many nodes they
      // come in one more GetTree instead of two reads per node (asking for them in the early GetTree would cost every
      // load from a complete cache). The reads below start without waiting for it: the application answers it first.
      if (early && entries && missing >= (this.options.partialFromNodes ?? PARTIAL_FROM_NODES)) {
        namesAdded = treeCall(NAME_TREE_PROPERTIES).then((named) => named && addProperties(entries, named));
        namesAdded.catch(() => undefined);
      }
    }
    if (loadedBy === 'Cache.GetItems' && (tree || !wantIds)) {
      // The warm path: everything from the cache, node data made straight from the items; the ids from GetTree
      // when it went out beside the cache call, else deferred.
      this.storeFromCache(root, structure);
      if (tree) {
        for (const entry of tree) {
          const data = this.store.get(entry.key);
          if (!data || data.app !== app) continue;
          if (data !== root) data.accessibleId = String(entry.properties.AccessibleId ?? '');
          if (wantAttributes) takeBulkAttributes(data, entry);
        }
      }
      app.ids = tree ? 'loaded' : 'deferred';
      app.bulk = 'loaded';
      app.loadedBy = loadedBy;
      return;
    }
    const cacheByKey = new Map<string, CacheItem>();
    for (const item of items ?? []) cacheByKey.set(item.key, item);
    const treeByKey = new Map<string, TreeEntry>();
    for (const entry of tree ?? []) treeByKey.set(entry.key, entry);

    const missing: Array<{ key: string; ref: ObjectRef }> = [];
    const headers = new Map<string, NodeHeader>();
    const fromCache = (key: string, cached: CacheItem): NodeHeader => {
      const entry = treeByKey.get(key);
      return {
        role: cached.role,
        name: cached.name,
        description: cached.description,
        accessibleId: entry ? String(entry.properties.AccessibleId ?? '') : '',
        states: cached.states,
        interfaces: cached.interfaces,
        childCount: structure.get(key)?.children.length ?? 0,
        partial: false,
      };
    };
    for (const [key, info] of structure) {
      if (key === root.key) continue;
      const cached = cacheByKey.get(key);
      if (cached) headers.set(key, fromCache(key, cached));
      else missing.push({ key, ref: info.ref });
    }
    // The cache asked again after the walk (see above) answers before the reads below; the nodes it holds are taken
    // from it, and the reads not started by then are skipped.
    let cachedAgain: Map<string, CacheItem> | undefined;
    const cacheReadAgain = recache?.then((again) => {
      if (again) cachedAgain = new Map(again.map((item) => [item.key, item]));
    });
    cacheReadAgain?.catch(() => undefined);
    // Nodes the cache did not hold: fetch what the structure pass did not bring, in pipelined calls, a bounded number
    // of nodes at a time (enough to keep the application's window full): thousands of calls issued at once held the
    // thread for seconds, and a closed connection (a timeout) ends the rest without a call. Nodes GetTree listed get
    // their role now (names came with it) and their states and interfaces after the load (partial): a Chromium
    // started while a listener was registered (Orca, another inspector) keeps a partial cache for good, and reading
    // all three for its ten thousand nodes held the first query for seconds.
    // A few hundred nodes are read whole at once: left partial, each would cost its readers a round trip later (a
    // recorder deciding within a key's 300 ms what it did).
    const leavePartial = missing.length >= (this.options.partialFromNodes ?? PARTIAL_FROM_NODES);
    const c = this.calls;
    const accessibleIdOf = (entry: TreeEntry) => String(entry.properties.AccessibleId ?? '');
    /** A name or description from the node's GetTree entry, read from the node where the entry lacks it. */
    const textOf = (entry: TreeEntry | undefined, name: 'Name' | 'Description', ref: ObjectRef) => {
      const value = entry?.properties[name];
      if (typeof value === 'string') return value;
      return name === 'Name' ? c.getName(ref) : c.getDescription(ref);
    };
    const childCountOf = (key: string) => structure.get(key)?.children.length ?? 0;
    await eachAtOnce(missing, leavePartial ? ROLES_READ_AT_ONCE : HEADERS_READ_AT_ONCE, async ({ key, ref }) => {
      if (c.client.isClosed || cachedAgain?.has(key)) return;
      const entry = treeByKey.get(key);
      try {
        if (!entry) {
          headers.set(key, await this.fetchHeader(ref));
        } else if (leavePartial) {
          // The role alone, one call and no promise besides it: the names come with the GetTree entries below.
          const role = await c.getRole(ref);
          headers.set(key, {
            role,
            states: [],
            interfaces: NO_INTERFACES,
            name: '',
            description: '',
            accessibleId: accessibleIdOf(entry),
            childCount: childCountOf(key),
            partial: true,
          });
        } else {
          const property = async (name: 'Name' | 'Description') => {
            if (namesAdded) await namesAdded;
            return textOf(entry, name, ref);
          };
          const [role, name, description, states, interfaces] = await Promise.all([
            c.getRole(ref),
            property('Name'),
            property('Description'),
            c.getState(ref),
            c.getInterfaces(ref),
          ]);
          headers.set(key, {
            role,
            states,
            interfaces,
            name,
            description,
            accessibleId: accessibleIdOf(entry),
            childCount: childCountOf(key),
            partial: false,
          });
        }
      } catch (error) {
        if (isNotRespondingError(error)) throw error;
        // Gone meanwhile: left out below.
      }
    });
    if (leavePartial) {
      // The names of the nodes whose roles were read: from the GetTree entries (the second one when it went out),
      // read per node where an entry lacks them.
      if (namesAdded) await namesAdded;
      const unnamed: Array<{ key: string; ref: ObjectRef; header: NodeHeader }> = [];
      for (const { key, ref } of missing) {
        const header = headers.get(key);
        const entry = treeByKey.get(key);
        if (!header?.partial || !entry) continue;
        const { Name: name, Description: description } = entry.properties;
        if (typeof name === 'string' && typeof description === 'string') {
          header.name = name;
          header.description = description;
        } else unnamed.push({ key, ref, header });
      }
      await eachAtOnce(unnamed, HEADERS_READ_AT_ONCE, async ({ key, ref, header }) => {
        if (c.client.isClosed) return;
        const entry = treeByKey.get(key);
        try {
          [header.name, header.description] = await Promise.all([
            textOf(entry, 'Name', ref),
            textOf(entry, 'Description', ref),
          ]);
        } catch (error) {
          if (isNotRespondingError(error)) throw error;
          headers.delete(key); // gone meanwhile: left out below
        }
      });
    }
    await cacheReadAgain;
    if (cachedAgain) {
      for (const { key } of missing) {
        const cached = cachedAgain.get(key);
        if (cached) headers.set(key, fromCache(key, cached));
      }
    }
    // Cache items carry no AccessibleId: when they are wanted and GetTree did not bring them, read them per node.
    const idsDeferred = !idsFromTree && !wantIds;
    if (!idsFromTree && wantIds) {
      await Promise.all(
        [...headers].map(async ([key, header]) => {
          if (header.accessibleId) return;
          const ref = structure.get(key)?.ref;
          if (ref) header.accessibleId = await this.calls.getAccessibleId(ref).catch(() => '');
        }),
      );
    }
    const partial: NodeData[] = [];
    for (const [key, info] of structure) {
      const header = key === root.key ? undefined : headers.get(key);
      let data: NodeData | undefined = key === root.key ? root : undefined;
      if (!data && header) {
        const existing = this.store.get(key);
        if (existing && !existing.invalid) {
          Object.assign(existing, header, { parentKey: info.parentKey, stale: false });
          data = existing;
        } else {
          data = newNodeData(info.ref, app, info.parentKey, header, key);
          this.store.put(data);
        }
        if (data.partial) partial.push(data);
      }
      if (!data) continue;
      if (wantAttributes) {
        const entry = treeByKey.get(key);
        if (entry) takeBulkAttributes(data, entry);
      }
      const children = info.children;
      data.children = missing.length === 0 ? children : children.filter((child) => headers.has(child));
      data.childCount = data.children.length;
    }
    app.ids = idsDeferred ? 'deferred' : 'loaded';
    app.bulk = 'loaded';
    app.loadedBy = loadedBy;
    this.completeInBackground(app, partial);
  }

  /** Puts a structure that came from a complete cache into the store, one node per item, no header objects. */
  private storeFromCache(root: NodeData, structure: Map<string, StructureInfo>): void {
    const app = root.app;
    for (const [key, info] of structure) {
      let data: NodeData | undefined;
      if (key === root.key) data = root;
      else {
        const item = info.item;
        const existing = this.store.get(key);
        if (!item) continue; // every node of a structure from the cache has its item
        if (existing && !existing.invalid) {
          existing.role = item.role;
          existing.name = item.name;
          existing.description = item.description;
          existing.accessibleId = '';
          existing.states = item.states;
          existing.interfaces = item.interfaces;
          existing.parentKey = info.parentKey;
          existing.stale = false;
          existing.partial = false;
          data = existing;
        } else {
          data = newNodeData(info.ref, app, info.parentKey, item, key);
          this.store.put(data);
        }
      }
      data.children = info.children;
      data.childCount = info.children.length;
    }
  }

  /**
   * Makes the developer ids of every node of the application definitive: one `Collection.GetTree` with only
   * `AccessibleId` where the application has Collection, per-node reads otherwise (and for nodes GetTree missed).
   * Shared by concurrent callers; once asked, later bulk loads of the application read ids eagerly.
   */
  loadIds(app: ApplicationData): Promise<void> {
    app.idsWanted = true;
    if (app.ids === 'loaded') return Promise.resolve();
    if (!app.idsPromise) {
      const promise = this.readIds(app).finally(() => {
        if (app.idsPromise === promise) app.idsPromise = undefined;
      });
      app.idsPromise = promise;
    }
    return app.idsPromise;
  }

  private async readIds(app: ApplicationData): Promise<void> {
    const root = this.store.get(runtimeIdOf(app.root));
    const nodes: NodeData[] = [];
    for (const data of this.store.nodes.values()) if (data.app === app && !data.invalid) nodes.push(data);
    let byKey: Map<string, string> | undefined;
    if (root?.interfaces.includes(IFACE.Collection)) {
      const tree = await this.calls
        .getTree(root.ref, this.options.bulkTimeoutMs, ID_TREE_PROPERTIES)
        .catch((error: unknown) => {
          if (isNotRespondingError(error)) throw error;
          return undefined;
        });
      if (tree) byKey = new Map(tree.map((entry) => [entry.key, String(entry.properties.AccessibleId ?? '')]));
    }
    await Promise.all(
      nodes.map(async (data) => {
        const id = byKey?.get(data.key);
        data.accessibleId = id ?? (await this.calls.getAccessibleId(data.ref));
      }),
    );
    app.ids = 'loaded';
  }
}

/** Adds the properties of a second GetTree of the same application to the entries of the first, by object. */
function addProperties(tree: readonly TreeEntry[], more: readonly TreeEntry[]): void {
  const byKey = new Map<string, TreeEntry['properties']>();
  for (const entry of more) byKey.set(entry.key, entry.properties);
  for (const entry of tree) {
    const properties = byKey.get(entry.key);
    if (properties) Object.assign(entry.properties, properties);
  }
}

interface StructureInfo {
  ref: ObjectRef;
  parentKey: string | undefined;
  children: string[];
  /** The node's cache item, when the structure came from the cache. */
  item?: CacheItem | undefined;
}

/**
 * Structure from the cache, only when it is complete from the root down: every node's children are all in the
 * cache with distinct indices. A partial cache returns undefined (never trusted for structure).
 */
export function structureFromCache(
  items: readonly CacheItem[],
  root: ObjectRef,
  /** The root's ChildCount as the root itself reports it: GTK 4's cache item of the root says 0. */
  rootChildCount?: number,
): Map<string, StructureInfo> | undefined {
  const rootKey = runtimeIdOf(root);
  const byKey = new Map<string, CacheItem>();
  for (const item of items) byKey.set(item.key, item);
  // Children by parent with their indices (current signature), or in listing order (no index); placed into their
  // slots when the parent is reached.
  const indexed = new Map<string, { keys: string[]; indices: number[] }>();
  const listed = new Map<string, string[]>();
  for (const item of items) {
    if (isNullRef(item.parent)) continue;
    const key = item.key;
    if (key === rootKey) continue;
    const parentKey = runtimeIdOf(item.parent);
    if (item.indexInParent === undefined) {
      let list = listed.get(parentKey);
      if (!list) listed.set(parentKey, (list = []));
      list.push(key);
      continue;
    }
    let entry = indexed.get(parentKey);
    if (!entry) indexed.set(parentKey, (entry = { keys: [], indices: [] }));
    entry.keys.push(key);
    entry.indices.push(item.indexInParent);
  }
  /**
   * The children of a parent in index order; undefined when there are not exactly `count` of them or two claim the
   * same index (a missing child, or a stale object claiming a taken place: the cache disagrees with itself and is
   * not trusted). Indices need not be 0..count-1: GTK 4 gives a notebook page's content the index it has among its
   * widget siblings (1 under a page with one child), while the page lists it as its only child, as libatspi shows.
   */
  const childrenInOrder = (key: string, count: number): string[] | undefined => {
    const entry = indexed.get(key);
    if (!entry) return count === 0 ? [] : undefined;
    if (entry.keys.length !== count) return undefined;
    const slots: Array<string | undefined> = new Array<string | undefined>(count).fill(undefined);
    let inRange = true;
    for (let i = 0; i < count; i++) {
      const index = entry.indices[i] as number;
      if (!Number.isInteger(index) || index < 0) return undefined;
      if (index >= count || slots[index] !== undefined) {
        inRange = false;
        break;
      }
      slots[index] = entry.keys[i];
    }
    if (inRange) return slots as string[];
    const order = entry.keys.map((child, i) => ({ child, index: entry.indices[i] as number }));
    order.sort((a, b) => a.index - b.index);
    for (let i = 1; i < order.length; i++) {
      if ((order[i] as (typeof order)[number]).index === (order[i - 1] as (typeof order)[number]).index)
        return undefined;
    }
    return order.map(({ child }) => child);
  };
  const out = new Map<string, StructureInfo>();
  const stack: Array<{ key: string; ref: ObjectRef; parentKey: string | undefined; depth: number }> = [
    { key: rootKey, ref: root, parentKey: undefined, depth: 0 },
  ];
  const rootItem = byKey.get(rootKey);
  if (rootItem === undefined && !indexed.has(rootKey) && !listed.has(rootKey)) return undefined;
  while (stack.length > 0) {
    const { key, ref, parentKey, depth } = stack.pop() as (typeof stack)[number];
    if (out.has(key) || depth > MAX_DEPTH) return undefined;
    const item = byKey.get(key);
    let children: string[];
    if (item?.children) {
      children = item.children.filter((c) => !isNullRef(c)).map(runtimeIdOf);
      if (!children.every((c) => byKey.has(c))) return undefined;
    } else if (listed.has(key) && !indexed.has(key)) {
      const list = listed.get(key) as string[];
      if (item && list.length !== item.childCount) return undefined;
      children = list;
    } else {
      const count =
        key === rootKey && rootChildCount !== undefined && rootChildCount >= 0
          ? rootChildCount
          : item
            ? item.childCount
            : (indexed.get(key)?.keys.length ?? 0);
      const ordered = childrenInOrder(key, count);
      if (!ordered) return undefined;
      children = ordered;
    }
    out.set(key, { ref, parentKey, children, item });
    for (let i = children.length - 1; i >= 0; i--) {
      const childKey = children[i] as string;
      const child = byKey.get(childKey);
      if (!child) return undefined;
      stack.push({ key: childKey, ref: child.ref, parentKey: key, depth: depth + 1 });
    }
  }
  return out;
}

/** Structure from GetTree's pre-order list with ChildCount; undefined (with the problem) when it does not add up. */
export function structureFromTree(
  entries: readonly TreeEntry[],
  root: ObjectRef,
): { structure: Map<string, StructureInfo> | undefined; problem?: string } {
  const out = new Map<string, StructureInfo>();
  const first = entries[0];
  if (!first || first.key !== runtimeIdOf(root)) {
    return { structure: undefined, problem: 'Collection.GetTree did not start at the application root' };
  }
  let position = 0;
  // Iterative pre-order reconstruction: each frame is a parent waiting for `remaining` more children.
  const stack: Array<{ key: string; remaining: number }> = [];
  while (position < entries.length) {
    const entry = entries[position++] as TreeEntry;
    const key = entry.key;
    if (out.has(key)) {
      return { structure: undefined, problem: `cycle: ${key} appears twice in Collection.GetTree` };
    }
    let count = Number(entry.properties.ChildCount ?? 0);
    if (!Number.isFinite(count) || count < 0) count = 0;
    if (count > MAX_CHILDREN) {
      return { structure: undefined, problem: `${key} reports ${count} children (absurd child count)` };
    }
    const parent = stack[stack.length - 1];
    out.set(key, { ref: entry.ref, parentKey: parent?.key, children: [] });
    if (parent) {
      out.get(parent.key)?.children.push(key);
      parent.remaining--;
    }
    if (stack.length > MAX_DEPTH) return { structure: undefined, problem: 'tree deeper than the depth limit' };
    if (count > 0) stack.push({ key, remaining: count });
    while (stack.length > 0 && (stack[stack.length - 1] as { remaining: number }).remaining === 0) stack.pop();
    if (stack.length === 0 && position < entries.length) {
      return { structure: undefined, problem: 'Collection.GetTree returned entries outside the root' };
    }
  }
  if (stack.length > 0) {
    return { structure: undefined, problem: 'Collection.GetTree returned fewer nodes than the child counts promise' };
  }
  return { structure: out };
}

/**
 * What a GetTree asked with TREE_PROPERTIES_WITH_ATTRIBUTES brought for a node: its object attributes, and its text
 * state unless the text is secret (a password role, or attributes that mark a password input): no length of a
 * password is kept.
 */
function takeBulkAttributes(data: NodeData, entry: TreeEntry): void {
  const attributes = treeEntryAttributes(entry);
  data.loadedAttributes = attributes;
  const secret = data.role === ATSPI_ROLE.PasswordText || secureByAttributes(attributes);
  data.loadedTextState = secret ? undefined : treeEntryTextState(entry);
}
