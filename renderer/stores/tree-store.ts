/**
 * The live tree: nodes loaded lazily per parent, an expansion set and a selection keyed by runtime id, and the flat
 * list of visible rows derived from them (what the virtualized view renders). Large maps are kept mutable and a
 * `version` counter tells subscribers that they changed, so that a 100,000-node tree is never copied per update.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { InspectorClient } from '../../shared/api/client.js';
import type { InspectorEvent, NodeSummary, TreeChange } from '../../shared/api/schema.js';
import { EXPAND_ALL_NODES } from '../../shared/api/sizes.js';
import { errorOf } from '../model/errors.js';
import { filteredRows, normalizedFilter } from './tree-filter.js';

export interface TreeRow {
  id: string;
  node: NodeSummary;
  /** 1-based depth, as aria-level wants it. */
  level: number;
  /** undefined for leaves. */
  expanded: boolean | undefined;
  loading: boolean;
  error: string | undefined;
  /** Position among siblings (1-based) and their count, for aria-posinset/aria-setsize. */
  posInSet: number;
  setSize: number;
}

export interface TreeState {
  rootId: string | undefined;
  nodes: Map<string, NodeSummary>;
  children: Map<string, string[]>;
  parents: Map<string, string>;
  loading: Set<string>;
  errors: Map<string, string>;
  expanded: Set<string>;
  selectedId: string | undefined;
  filter: string;
  rows: TreeRow[];
  /** Index of the selected row in `rows`, -1 when it is not visible. */
  selectedIndex: number;
  version: number;
  /** Asks the view to scroll a row into view; the sequence number makes repeated requests distinct. */
  scrollRequest: { id: string; seq: number; align: 'auto' | 'center' } | undefined;
  /** Last error loading the tree (shown in the status bar). */
  lastError: string | undefined;
  /** An expand-all is running (the tree says it is busy). */
  expandingAll: boolean;
}

export interface TreeActions {
  setRoot(node: NodeSummary): Promise<void>;
  loadChildren(id: string, force?: boolean): Promise<string[]>;
  expand(id: string): Promise<void>;
  collapse(id: string): void;
  toggle(id: string): Promise<void>;
  /** `align: 'center'` scrolls the row to the middle (a node revealed from elsewhere), 'auto' just into view. */
  select(id: string | undefined, options?: { scroll?: boolean; align?: 'auto' | 'center' }): void;
  /** Keyboard navigation; returns true when the key was handled. */
  key(key: string, pageSize?: number): Promise<boolean>;
  /** Expands every node below `id` (one `subtree` request, one commit), up to `limit` nodes; resolves with the count. */
  expandAll(id: string, limit?: number): Promise<number>;
  refresh(id: string, subtree: boolean): Promise<void>;
  /** Loads and expands the path to a node, selects it and scrolls it into view. */
  reveal(id: string, path?: NodeSummary[]): Promise<void>;
  setFilter(text: string): void;
  handleEvent(event: InspectorEvent): void;
  /** Waits for reloads scheduled by events (tests, benchmarks). */
  settle(): Promise<void>;
}

export type TreeStore = StoreApi<TreeState & TreeActions>;

function hasChildrenOf(state: TreeState, id: string): boolean {
  const loaded = state.children.get(id);
  if (loaded) return loaded.length > 0;
  return state.nodes.get(id)?.hasChildren ?? true;
}

/** The flat list of rows: preorder over expanded nodes (with a filter, the filter's rows: see tree-filter.ts). */
export function computeRows(state: TreeState): TreeRow[] {
  if (normalizedFilter(state.filter)) return filteredRows(state, state.filter);
  if (!state.rootId || !state.nodes.has(state.rootId)) return [];
  return blockRows(state, state.rootId, 1, 1, 1);
}

/** The row of one node and the rows of its visible descendants, in preorder. */
function blockRows(state: TreeState, top: string, topLevel: number, topPos: number, topSize: number): TreeRow[] {
  const rows: TreeRow[] = [];
  const stack: Array<{ id: string; level: number; pos: number; size: number }> = [
    { id: top, level: topLevel, pos: topPos, size: topSize },
  ];
  while (stack.length) {
    const { id, level, pos, size } = stack.pop()!;
    const node = state.nodes.get(id);
    if (!node) continue;
    const expandable = hasChildrenOf(state, id);
    const kids = state.children.get(id);
    const open = expandable && state.expanded.has(id);
    rows.push({
      id,
      node,
      level,
      expanded: expandable ? open && (kids !== undefined || state.loading.has(id)) : undefined,
      loading: state.loading.has(id),
      error: state.errors.get(id),
      posInSet: pos,
      setSize: size,
    });
    if (open && kids) {
      for (let i = kids.length - 1; i >= 0; i--)
        stack.push({ id: kids[i]!, level: level + 1, pos: i + 1, size: kids.length });
    }
  }
  return rows;
}

/**
 * The rows after the nodes `changed` changed (their own state, their children, their expansion): only the block of
 * rows of each changed node that is visible is made anew; every other row stays the same object.
 */
export function updatedRows(state: TreeState, rows: TreeRow[], changed: Iterable<string>): TreeRow[] {
  let out = rows;
  for (const id of changed) {
    const at = out.findIndex((row) => row.id === id);
    if (at < 0) continue;
    const row = out[at]!;
    let end = at + 1;
    while (end < out.length && out[end]!.level > row.level) end++;
    const block = blockRows(state, id, row.level, row.posInSet, row.setSize);
    out = out.slice(0, at).concat(block, out.slice(end));
  }
  return out;
}

/** Children are read in pages of this size (the protocol caps a page at 10,000). */
const CHILDREN_PAGE = 2000;

/** Every structural child of a node, page by page; `refresh` makes the host read them again first. */
async function fetchChildren(client: InspectorClient, id: string, refresh: boolean): Promise<NodeSummary[]> {
  const out: NodeSummary[] = [];
  for (let offset = 0; ; offset += CHILDREN_PAGE) {
    const page = await client.children(id, { offset, limit: CHILDREN_PAGE, refresh: refresh && offset === 0 });
    out.push(...page.nodes);
    if (page.nodes.length === 0 || offset + page.nodes.length >= page.total) return out;
  }
}

export function createTreeStore(client: InspectorClient): TreeStore {
  const reloads = new Map<string, ReturnType<typeof setTimeout>>();
  const followUps = new Set<ReturnType<typeof setTimeout>>();
  const inflight = new Set<Promise<unknown>>();
  let scrollSeq = 0;

  const store = createStore<TreeState & TreeActions>()((set, get) => {
    /**
     * Publishes the maps' changes: with `changed`, only those nodes' rows are made anew (a filter still recomputes
     * its rows), else every row.
     */
    const commit = (extra: Partial<TreeState> = {}, changed?: readonly string[]) => {
      const next = { ...get(), ...extra };
      const incremental = changed !== undefined && next.rows.length > 0 && !normalizedFilter(next.filter);
      const rows = incremental ? updatedRows(next, next.rows, changed) : computeRows(next);
      const selectedIndex = next.selectedId ? rows.findIndex((row) => row.id === next.selectedId) : -1;
      set({ ...extra, rows, selectedIndex, version: get().version + 1 });
    };

    const track = <T>(promise: Promise<T>): Promise<T> => {
      inflight.add(promise);
      void promise.finally(() => inflight.delete(promise)).catch(() => undefined);
      return promise;
    };

    const forget = (id: string, keep: string | undefined) => {
      const s = get();
      const kids = s.children.get(id);
      s.children.delete(id);
      if (id !== keep) {
        s.parents.delete(id);
        s.nodes.delete(id);
      }
      for (const kid of kids ?? []) forget(kid, keep);
    };

    /** Takes a node's fresh child list into the maps (no commit); children that went away are forgotten. */
    const takeChildren = (id: string, views: readonly NodeSummary[]): string[] => {
      const st = get();
      const previous = st.children.get(id) ?? [];
      const ids = views.map((view) => view.runtimeId);
      const now = new Set(ids);
      for (const view of views) {
        const old = st.nodes.get(view.runtimeId);
        st.nodes.set(view.runtimeId, old && old.stale ? { ...view } : view);
        st.parents.set(view.runtimeId, id);
      }
      for (const old of previous) {
        if (now.has(old)) continue;
        const selected = st.selectedId;
        // The selected node may be gone: keep it, marked stale, so the details panel can say so.
        if (selected && (selected === old || isAncestor(old, selected))) {
          const node = st.nodes.get(selected);
          if (node) st.nodes.set(selected, { ...node, stale: true });
        }
        forget(old, selected);
      }
      st.children.set(id, ids);
      st.errors.delete(id);
      return ids;
    };

    const loadChildren = async (id: string, force = false, refreshHost = false): Promise<string[]> => {
      const s = get();
      const known = s.children.get(id);
      if (known && !force) return known;
      s.loading.add(id);
      commit({}, [id]);
      try {
        const views = await track(fetchChildren(client, id, refreshHost));
        const ids = takeChildren(id, views);
        get().loading.delete(id);
        commit({}, [id]);
        return ids;
      } catch (error) {
        const st = get();
        st.loading.delete(id);
        const message = errorOf(error).message;
        st.errors.set(id, message);
        commit({ lastError: message }, [id]);
        return [];
      }
    };

    const isAncestor = (ancestor: string, id: string): boolean => {
      const parents = get().parents;
      for (let p = parents.get(id); p; p = parents.get(p)) if (p === ancestor) return true;
      return false;
    };

    const scheduleReload = (id: string) => {
      const existing = reloads.get(id);
      if (existing) clearTimeout(existing);
      reloads.set(
        id,
        setTimeout(() => {
          reloads.delete(id);
          void track(reloadExpanded(id));
        }, 50),
      );
    };

    /** One reported change: mark what went away, reload the lists that changed (coalesced per node). */
    const applyChange = (change: TreeChange) => {
      const s = get();
      const { kind, runtimeId, parentRuntimeId } = change;
      if (kind === 'TreeInvalidated' || (!runtimeId && !parentRuntimeId)) {
        if (s.rootId) scheduleReload(s.rootId);
        return;
      }
      if (kind === 'NodeRemoved' && runtimeId) {
        const node = s.nodes.get(runtimeId);
        if (node) {
          s.nodes.set(runtimeId, { ...node, stale: true });
          commit({}, [runtimeId]);
        }
      }
      const parent = parentRuntimeId ?? (runtimeId ? s.parents.get(runtimeId) : undefined);
      if (kind === 'NodeUpdated' && runtimeId) {
        // The new name and revision come with the parent's children; the node's own children may change too.
        if (s.children.has(runtimeId)) scheduleReload(runtimeId);
      }
      if (parent && s.children.has(parent)) scheduleReload(parent);
      else if (!parent && s.rootId) {
        // A new or vanished application: the desktop's list can lag behind the event (the registry answers with
        // the old list for a moment), so look again a little later too.
        scheduleReload(s.rootId);
        const rootId = s.rootId;
        const later = setTimeout(() => {
          followUps.delete(later);
          scheduleReload(rootId);
        }, 1000);
        followUps.add(later);
      }
    };

    /** Reloads the children of a node and of every expanded, loaded node below it. */
    const reloadExpanded = async (id: string): Promise<void> => {
      if (!get().children.has(id)) return;
      const ids = await loadChildren(id, true);
      const s = get();
      await Promise.all(ids.filter((kid) => s.expanded.has(kid) && s.children.has(kid)).map(reloadExpanded));
    };

    /** The chain from the desktop down to the node, both included. */
    const pathTo = async (id: string): Promise<NodeSummary[]> => {
      const [ancestors, node] = await Promise.all([client.ancestors(id), client.node(id)]);
      return [...ancestors.nodes, node];
    };

    /** The chain from the root to a node the tree has loaded already (no request); undefined when it has not. */
    const loadedPathTo = (id: string): NodeSummary[] | undefined => {
      const s = get();
      const chain: NodeSummary[] = [];
      for (let at: string | undefined = id; at !== undefined; at = s.parents.get(at)) {
        const node = s.nodes.get(at);
        if (!node || node.stale) return undefined;
        chain.unshift(node);
        if (at === s.rootId) return chain;
      }
      return undefined;
    };

    const selectIndex = (index: number) => {
      const rows = get().rows;
      if (rows.length === 0) return;
      const row = rows[Math.max(0, Math.min(rows.length - 1, index))]!;
      get().select(row.id, { scroll: true });
    };

    return {
      rootId: undefined,
      nodes: new Map(),
      children: new Map(),
      parents: new Map(),
      loading: new Set(),
      errors: new Map(),
      expanded: new Set(),
      selectedId: undefined,
      filter: '',
      rows: [],
      selectedIndex: -1,
      version: 0,
      scrollRequest: undefined,
      lastError: undefined,
      expandingAll: false,

      async setRoot(node) {
        const s = get();
        s.nodes.clear();
        s.children.clear();
        s.parents.clear();
        s.errors.clear();
        s.nodes.set(node.runtimeId, node);
        s.expanded.add(node.runtimeId);
        commit({ rootId: node.runtimeId });
        await loadChildren(node.runtimeId);
      },

      loadChildren: (id, force) => loadChildren(id, force),

      async expand(id) {
        const s = get();
        s.expanded.add(id);
        commit({}, [id]);
        await loadChildren(id);
      },

      collapse(id) {
        get().expanded.delete(id);
        commit({}, [id]);
      },

      async toggle(id) {
        if (get().expanded.has(id)) get().collapse(id);
        else await get().expand(id);
      },

      select(id, options = {}) {
        const scroll =
          options.scroll && id ? { id, seq: ++scrollSeq, align: options.align ?? 'auto' } : get().scrollRequest;
        const rows = get().rows;
        set({
          selectedId: id,
          selectedIndex: id ? rows.findIndex((row) => row.id === id) : -1,
          scrollRequest: scroll,
        });
      },

      async key(key, pageSize = 10) {
        const s = get();
        const index = s.selectedIndex;
        const row = index >= 0 ? s.rows[index] : undefined;
        switch (key) {
          case 'ArrowDown':
            selectIndex(index < 0 ? 0 : index + 1);
            return true;
          case 'ArrowUp':
            selectIndex(index < 0 ? 0 : index - 1);
            return true;
          case 'Home':
            selectIndex(0);
            return true;
          case 'End':
            selectIndex(s.rows.length - 1);
            return true;
          case 'PageDown':
            selectIndex(index < 0 ? 0 : index + pageSize);
            return true;
          case 'PageUp':
            selectIndex(index < 0 ? 0 : index - pageSize);
            return true;
          case 'ArrowRight':
            if (!row) return false;
            if (row.expanded === false) await get().expand(row.id);
            else if (row.expanded === true) {
              const next = get().rows[get().selectedIndex + 1];
              if (next && next.level > row.level) get().select(next.id, { scroll: true });
            }
            return true;
          case 'ArrowLeft': {
            if (!row) return false;
            if (row.expanded === true && row.level > 1) get().collapse(row.id);
            else {
              const parent = s.parents.get(row.id);
              if (parent) get().select(parent, { scroll: true });
            }
            return true;
          }
          case '*':
            if (!row) return false;
            await get().expandAll(row.id);
            return true;
          case 'Enter':
          case ' ':
            if (!row || row.expanded === undefined) return false;
            await get().toggle(row.id);
            return true;
          default:
            return false;
        }
      },

      async expandAll(id, limit = EXPAND_ALL_NODES) {
        set({ expandingAll: true });
        try {
          const answer = await track(client.subtree(id, limit));
          const s = get();
          s.expanded.add(id);
          for (const list of answer.lists) {
            takeChildren(list.parentRuntimeId, list.nodes);
            s.expanded.add(list.parentRuntimeId);
          }
          // The host read every listed node's children: those without a list of their own are leaves, and an event
          // that adds a child to one reloads it as it would a loaded list.
          for (const list of answer.lists) {
            for (const node of list.nodes) {
              if (node.childCount === 0 && !s.children.has(node.runtimeId)) s.children.set(node.runtimeId, []);
            }
          }
          commit({ expandingAll: false }, [id]);
          return answer.nodes;
        } catch (error) {
          commit({ expandingAll: false, lastError: errorOf(error).message });
          return 0;
        }
      },

      async refresh(id, subtree) {
        // The host reads the node's children again; the parent's list brings the node's fresh name and revision.
        const parent = get().parents.get(id);
        if (parent) await loadChildren(parent, true);
        if (get().children.has(id)) await loadChildren(id, true, true);
        if (subtree) {
          const s = get();
          const kids = s.children.get(id) ?? [];
          await Promise.all(kids.filter((kid) => s.expanded.has(kid) && s.children.has(kid)).map(reloadExpanded));
        }
      },

      async reveal(id, path) {
        const chain = path ?? loadedPathTo(id) ?? (await pathTo(id));
        const s = get();
        for (const view of chain) {
          if (!s.nodes.has(view.runtimeId)) s.nodes.set(view.runtimeId, view);
        }
        const opened: string[] = [];
        for (let i = 0; i < chain.length - 1; i++) {
          const ancestor = chain[i]!.runtimeId;
          if (!s.expanded.has(ancestor)) opened.push(ancestor);
          s.expanded.add(ancestor);
          const kids = await loadChildren(ancestor);
          const next = chain[i + 1]!.runtimeId;
          if (!kids.includes(next)) {
            // The host's idea of the parent differs from the tree's (grouped view): reload once.
            const again = await loadChildren(ancestor, true);
            if (!again.includes(next)) break;
          }
        }
        commit({}, opened);
        get().select(id, { scroll: true, align: 'center' });
      },

      setFilter(text) {
        commit({ filter: text });
      },

      handleEvent(event) {
        if (event.type !== 'tree.changed') return;
        const rootId = get().rootId;
        if (event.overflow) {
          if (rootId) scheduleReload(rootId);
          return;
        }
        for (const change of event.changes) applyChange(change);
      },

      async settle() {
        for (;;) {
          if (reloads.size || followUps.size) {
            await new Promise((resolve) => setTimeout(resolve, 60));
            continue;
          }
          if (!inflight.size) return;
          await Promise.allSettled([...inflight]);
        }
      },
    };
  });
  return store;
}
