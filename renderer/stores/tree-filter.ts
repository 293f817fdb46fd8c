/**
 * The tree filter: over every loaded node, the rows that match and their real ancestors (expanded, in tree order),
 * nothing else; and "search the whole tree", which asks the host for matches anywhere (loaded or not) and loads
 * the path to each, so that the filter then shows them under their parents.
 */
import type { InspectorClient } from '../../shared/api/client.js';
import type { NodeSummary } from '../../shared/api/schema.js';
import { xpathString } from '../../shared/locators/quote.js';
import { nodeLabel } from '../model/labels.js';
import type { TreeRow, TreeStore } from './tree-store.js';

/** What the filter reads of the tree store. */
export interface FilterSource {
  rootId: string | undefined;
  nodes: ReadonlyMap<string, NodeSummary>;
  children: ReadonlyMap<string, readonly string[]>;
  parents: ReadonlyMap<string, string>;
  loading: ReadonlySet<string>;
  errors: ReadonlyMap<string, string>;
}

/** The filter as the rows compare it: trimmed, case-insensitive. */
export function normalizedFilter(text: string): string {
  return text.trim().toLowerCase();
}

/** Whether a node's row label (`Button "OK"`) contains the filter (already normalized). */
export function matchesFilter(node: NodeSummary, filter: string): boolean {
  return nodeLabel(node).toLowerCase().includes(filter);
}

/** The rows for a filter: matching nodes and their ancestors, each ancestor expanded; empty when nothing matches. */
export function filteredRows(state: FilterSource, filterText: string): TreeRow[] {
  const filter = normalizedFilter(filterText);
  const rows: TreeRow[] = [];
  if (!state.rootId || !state.nodes.has(state.rootId)) return rows;
  const kept = new Set<string>();
  const walk = [state.rootId];
  while (walk.length) {
    const id = walk.pop()!;
    const node = state.nodes.get(id);
    if (!node) continue;
    if (matchesFilter(node, filter)) {
      for (let at: string | undefined = id; at !== undefined && !kept.has(at); at = state.parents.get(at)) kept.add(at);
    }
    for (const kid of state.children.get(id) ?? []) walk.push(kid);
  }
  if (kept.size === 0) return rows;
  const stack: Array<{ id: string; level: number; pos: number; size: number }> = [
    { id: state.rootId, level: 1, pos: 1, size: 1 },
  ];
  while (stack.length) {
    const { id, level, pos, size } = stack.pop()!;
    const node = state.nodes.get(id)!;
    const shown = (state.children.get(id) ?? []).filter((kid) => kept.has(kid));
    const loaded = state.children.get(id);
    const expandable = loaded ? loaded.length > 0 : node.hasChildren;
    rows.push({
      id,
      node,
      level,
      expanded: shown.length > 0 ? true : expandable ? false : undefined,
      loading: state.loading.has(id),
      error: state.errors.get(id),
      posInSet: pos,
      setSize: size,
    });
    for (let i = shown.length - 1; i >= 0; i--)
      stack.push({ id: shown[i]!, level: level + 1, pos: i + 1, size: shown.length });
  }
  return rows;
}

/** The XPath that finds what the filter finds: nodes whose role or name contains the text, any case. */
export function filterXPath(filterText: string): string {
  const needle = xpathString(normalizedFilter(filterText));
  return `//*[contains(lower-case(local-name()), ${needle}) or contains(lower-case(@Name), ${needle})]`;
}

/** How many matches "search the whole tree" brings in at most. */
export const WHOLE_TREE_MATCHES = 200;

export interface WholeTreeSearch {
  /** Matches found (at most `limit`). */
  found: number;
  /** The host had more than the limit. */
  more: boolean;
}

/**
 * Searches the whole tree for the filter through the host and loads the path to each match (the tree store's own
 * lazy loading), so the filtered rows show them under their real parents.
 */
export async function searchWholeTree(
  client: InspectorClient,
  tree: TreeStore,
  filterText: string,
  limit = WHOLE_TREE_MATCHES,
): Promise<WholeTreeSearch> {
  const matches: NodeSummary[] = [];
  const evaluation = client.evaluate(filterXPath(filterText), {
    maxResults: limit + 1,
    queue: true,
    onItems: (items) => {
      for (const item of items) if (item.type === 'node') matches.push(item.node);
    },
  });
  await evaluation.done;
  const wanted = matches.slice(0, limit);
  for (const match of wanted) {
    const { nodes: ancestors } = await client.ancestors(match.runtimeId);
    for (const ancestor of ancestors) await tree.getState().loadChildren(ancestor.runtimeId);
  }
  // The filter's rows are computed anew from what is loaded now.
  tree.getState().setFilter(tree.getState().filter);
  return { found: wanted.length, more: matches.length > limit };
}
