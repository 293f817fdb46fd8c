/**
 * The selected node's details: its attributes (grouped by namespace, sortable, filterable), its patterns and the
 * results of pattern actions. Loads follow the selection; a late answer for a node no longer selected is dropped.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { ActionArgs, InspectorClient } from '../../shared/api/client.js';
import type { ApiAttribute, NodeSummary, PatternInfo } from '../../shared/api/schema.js';
import { NAMESPACES } from '../../shared/model/namespaces.js';
import { formatValueText } from '../../shared/model/values.js';
import { errorOf } from '../model/errors.js';

export type SortKey = 'name' | 'value' | 'type';

export interface ActionOutcome {
  action: string;
  ok: boolean;
  message: string;
  /** The node had changed since it was shown: the host refused the action. */
  stale: boolean;
}

export interface DetailsState {
  node: NodeSummary | undefined;
  attributes: ApiAttribute[];
  patterns: PatternInfo[];
  loading: boolean;
  error: string | undefined;
  sort: { key: SortKey; descending: boolean };
  filter: string;
  /** The last outcome per pattern action, shown next to its button. */
  outcomes: { [action: string]: ActionOutcome };
  busy: string | undefined;
}

export interface DetailsActions {
  show(node: NodeSummary | undefined): Promise<void>;
  reload(): Promise<void>;
  setSort(key: SortKey): void;
  setFilter(text: string): void;
  perform(action: string, args?: ActionArgs): Promise<ActionOutcome>;
}

export type DetailsStore = StoreApi<DetailsState & DetailsActions>;

export interface AttributeGroup {
  namespace: string;
  entries: ApiAttribute[];
}

export function attributeText(entry: ApiAttribute): string {
  return formatValueText(entry.value);
}

/** Groups by namespace (control, item, app, native order), sorted and filtered within each group. */
export function groupAttributes(
  entries: readonly ApiAttribute[],
  sort: DetailsState['sort'],
  filter: string,
): AttributeGroup[] {
  const needle = filter.trim().toLowerCase();
  const matches = (entry: ApiAttribute) =>
    !needle ||
    entry.name.toLowerCase().includes(needle) ||
    `${entry.namespace}:${entry.name}`.toLowerCase().includes(needle) ||
    attributeText(entry).toLowerCase().includes(needle);
  const key = (entry: ApiAttribute): string =>
    sort.key === 'name' ? entry.name : sort.key === 'type' ? entry.value.type : attributeText(entry);
  const groups: AttributeGroup[] = [];
  const order = [...NAMESPACES, ...new Set(entries.map((e) => e.namespace))].filter(
    (ns, i, all) => all.indexOf(ns) === i,
  );
  for (const namespace of order) {
    const items = entries.filter((entry) => entry.namespace === namespace && matches(entry));
    if (!items.length) continue;
    items.sort((a, b) => {
      const c = key(a).localeCompare(key(b), undefined, { numeric: true, sensitivity: 'base' });
      return (sort.descending ? -c : c) || a.name.localeCompare(b.name);
    });
    groups.push({ namespace, entries: items });
  }
  return groups;
}

/** An input left empty is not sent (the host would refuse an empty number). */
function withoutEmpty(args: ActionArgs): ActionArgs {
  const out: ActionArgs = {};
  for (const [key, value] of Object.entries(args) as Array<[keyof ActionArgs, ActionArgs[keyof ActionArgs]]>) {
    if (value !== undefined && value !== '') (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

export function createDetailsStore(client: InspectorClient): DetailsStore {
  let ticket = 0;
  return createStore<DetailsState & DetailsActions>()((set, get) => ({
    node: undefined,
    attributes: [],
    patterns: [],
    loading: false,
    error: undefined,
    sort: { key: 'name', descending: false },
    filter: '',
    outcomes: {},
    busy: undefined,

    async show(node) {
      const mine = ++ticket;
      const same = node && get().node?.runtimeId === node.runtimeId;
      set({
        node,
        loading: Boolean(node),
        error: undefined,
        ...(same ? {} : { attributes: [], patterns: [], outcomes: {} }),
      });
      if (!node) return;
      try {
        const [attributes, patterns] = await Promise.all([
          client.attributes(node.runtimeId).then((result) => result.attributes),
          client.patterns(node.runtimeId).then(
            (result) => result.patterns,
            () => [] as PatternInfo[],
          ),
        ]);
        if (mine !== ticket) return;
        set({ attributes, patterns, loading: false });
      } catch (error) {
        if (mine !== ticket) return;
        const e = errorOf(error);
        set({
          loading: false,
          error: e.code === 'stale-node' ? `${e.message} (the node is stale)` : e.message,
          node: e.code === 'stale-node' ? { ...node, stale: true } : node,
        });
      }
    },

    async reload() {
      await get().show(get().node);
    },

    setSort(key) {
      const sort = get().sort;
      set({ sort: { key, descending: sort.key === key ? !sort.descending : false } });
    },

    setFilter(text) {
      set({ filter: text });
    },

    async perform(action, args) {
      const node = get().node;
      if (!node) throw new Error('no node selected');
      set({ busy: action });
      let outcome: ActionOutcome;
      if (node.stale) {
        outcome = {
          action,
          ok: false,
          stale: true,
          message: `Refused: the node no longer exists (it is stale). Refresh the tree and select it again.`,
        };
      } else {
        try {
          await client.action(node.runtimeId, node.revision, action, withoutEmpty(args ?? {}));
          outcome = { action, ok: true, stale: false, message: `${action}: done` };
        } catch (error) {
          const e = errorOf(error);
          const stale = e.code === 'stale-node';
          outcome = {
            action,
            ok: false,
            stale,
            message: stale ? `Refused: ${e.message}` : `${action} failed: ${e.message}`,
          };
        }
      }
      set({ busy: undefined, outcomes: { ...get().outcomes, [action]: outcome } });
      return outcome;
    },
  }));
}
