import { MAX_HIGHLIGHT_NODES, type Params, type Result } from '../../shared/api/schema.js';
import type { Rect } from '../../shared/model/values.js';
import type { RuntimeNode } from '../runtime/node.js';
import type { XPathItem } from '../xpath/xpath-service.js';
import { visibleBounds } from './bounds.js';
import type { TreeView } from './tree-view.js';

/** A view that can draw a highlight for an owner (one highlight on screen; see the host's highlight ownership). */
export interface HighlightView extends TreeView {
  highlight(owner: object, rects: Rect[], durationMs?: number): Promise<boolean>;
}

/**
 * What a highlight request outlines: its rectangles as given, then the visible bounds of the named nodes and of the
 * nodes (or attribute owners) among an evaluation's results, at most MAX_HIGHLIGHT_NODES nodes in all. A named node
 * no longer known is a `stale-node` error; a result that went away since the evaluation is left out.
 */
export async function highlightTargets(
  view: TreeView,
  { runtimeIds, rects }: Pick<Params<'highlight'>, 'runtimeIds' | 'rects'>,
  results: Iterable<XPathItem>,
): Promise<Rect[]> {
  const nodes: RuntimeNode[] = (runtimeIds ?? []).map((runtimeId) => view.node(runtimeId));
  for (const item of results) {
    if (nodes.length >= MAX_HIGHLIGHT_NODES) break;
    if (item.type === 'node') nodes.push(item.node);
    else if (item.type === 'attribute') nodes.push(item.owner);
  }
  return [...(rects ?? []), ...(await visibleBounds(nodes))];
}

/** Outlines what the request names for `owner` (see highlightTargets). */
export async function showHighlight(
  view: HighlightView,
  owner: object,
  params: Params<'highlight'>,
  results: Iterable<XPathItem>,
): Promise<Result<'highlight'>> {
  const rects = await highlightTargets(view, params, results);
  return { rects, shown: await view.highlight(owner, rects, params.durationMs) };
}
