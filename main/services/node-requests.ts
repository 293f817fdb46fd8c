import type { Params, Result } from '../../shared/api/schema.js';
import { InspectorError } from '../../shared/model/errors.js';
import type { XPathService } from '../xpath/xpath-service.js';
import { ancestryOf } from './ancestry.js';
import { exportNode, locatorsOf } from './locate.js';
import { attributesOf, patternsOf, performPatternAction } from './patterns.js';
import type { TreeView } from './tree-view.js';

/**
 * The details panel's requests about one node (`node`, `ancestors`, `attributes`, `patterns`, `action`, `locate`,
 * `export`).
 */

/** A tree view that may be a snapshot's: read-only then. */
export interface NodeView extends TreeView {
  /** The snapshot the view shows; undefined for the live desktop. */
  readonly snapshotName: string | undefined;
}

/** A tree view with its XPath service (locators are verified by evaluating them). */
export interface LocatorView extends TreeView {
  readonly xpath: XPathService;
}

export async function nodeSummary(view: TreeView, { runtimeId }: Params<'node'>): Promise<Result<'node'>> {
  return view.summarize(view.node(runtimeId));
}

/** The node's ancestors from the desktop down, as the tree shows them (the application above its windows). */
export async function nodeAncestors(view: TreeView, { runtimeId }: Params<'ancestors'>): Promise<Result<'ancestors'>> {
  return { nodes: (await ancestryOf(view.runtime, view.node(runtimeId))).map((node) => view.summarize(node)) };
}

export async function nodeAttributes(
  view: TreeView,
  { runtimeId, refresh }: Params<'attributes'>,
): Promise<Result<'attributes'>> {
  const node = view.node(runtimeId);
  const attributes = await attributesOf(node, refresh);
  return { runtimeId, revision: node.revision, attributes };
}

export async function nodePatterns(view: TreeView, { runtimeId }: Params<'patterns'>): Promise<Result<'patterns'>> {
  const node = view.node(runtimeId);
  return { runtimeId, revision: node.revision, patterns: await patternsOf(node) };
}

/**
 * Performs a pattern's action on the node as it was at `expectedRevision` (see performPatternAction); unsupported
 * on a snapshot, which is read-only.
 */
export async function nodeAction(
  view: NodeView,
  { runtimeId, expectedRevision, action, args }: Params<'action'>,
): Promise<Result<'action'>> {
  if (view.snapshotName) throw new InspectorError('unsupported', `${view.snapshotName} is a snapshot: it is read-only`);
  const node = view.node(runtimeId);
  await performPatternAction(node, expectedRevision, action, args);
  return { node: view.summarize(node) };
}

/** The node's verified locators, best first, at most `limit`. */
export async function nodeLocators(
  view: LocatorView,
  { runtimeId, limit }: Params<'locate'>,
): Promise<Result<'locate'>> {
  return { runtimeId, locators: await locatorsOf(view.runtime, view.xpath, view.node(runtimeId), limit) };
}

/** Test code that finds the node (and acts on it), with the locators it was made from. */
export async function nodeExport(
  view: LocatorView,
  { runtimeId, format, action }: Params<'export'>,
): Promise<Result<'export'>> {
  return { format, ...(await exportNode(view.runtime, view.xpath, view.node(runtimeId), format, action)) };
}
