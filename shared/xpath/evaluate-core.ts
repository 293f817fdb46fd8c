import type { IDomFacade } from 'fontoxpath';
import { InspectorError, positionAt } from '../model/errors.js';
import { explainXPathError } from './error-messages.js';
import { XdmDomFacade, type FacadeAttribute, type FacadeElement } from './dom-facade.js';
import { resolveStaticPrefix, rewriteControlAttributeTests } from './namespaces.js';
import { compileFastPath, FastPathFallback, type FastItemMaker } from './fast/index.js';
import { checkXPathNesting, isStackOverflow, tooComplex } from './nesting.js';
import { checkOneTree, type OneTreeShape } from './one-tree.js';
import { NAMESPACE_URIS } from '../model/namespaces.js';
import type { XdmTree } from './tree.js';

export type XPathValue = string | number | boolean;

export type XPathItem<N> =
  | { kind: 'node'; node: N }
  | { kind: 'attribute'; owner: N; namespaceUri: string | null; localName: string; value: string }
  | { kind: 'value'; value: XPathValue; integer?: boolean };

export type XPathEngine = 'fast' | 'fontoxpath';

/** fontoxpath's module: handed in by the caller, so that a caller can load it only when the fast path declines. */
export type Fontoxpath = typeof import('fontoxpath');

interface FontoxpathPosition {
  start: { offset: number; line: number };
}

/** Turns a fontoxpath error into one in plain words that names the position in the user's text. */
export function toXPathError(error: unknown, xpath: string): InspectorError {
  if (error instanceof InspectorError) return error;
  const raw = error instanceof Error ? error.message : String(error);
  const engineCode = /\b(XP[A-Z]{2}\d{4}|FO[A-Z]{2}\d{4}|XQ[A-Z]{2}\d{4})\b/.exec(raw)?.[1] ?? '';
  const lines = raw.split('\n');
  const errorLine =
    lines.find((line) => line.startsWith('Error: ')) ?? lines.find((line) => engineCode && line.includes(engineCode));
  const offset = (error as { position?: FontoxpathPosition }).position?.start.offset;
  const { code, message, position } = explainXPathError(xpath, { engineCode, text: errorLine ?? raw, offset });
  return new InspectorError(code, message, { position });
}

function fromFontoxpath<N>(value: unknown, items: XPathItem<N>[], root: N): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const entry of value) fromFontoxpath(entry, items, root);
    return;
  }
  if (typeof value === 'object') {
    const candidate = value as { nodeType?: number; owner?: unknown };
    if (candidate.nodeType === 2 && 'owner' in candidate) {
      const attribute = value as FacadeAttribute<N>;
      items.push({
        kind: 'attribute',
        owner: attribute.owner,
        namespaceUri: attribute.namespaceURI,
        localName: attribute.localName,
        value: attribute.value,
      });
      return;
    }
    if (candidate.nodeType === 1 || candidate.nodeType === 9) {
      items.push({ kind: 'node', node: (value as FacadeElement<N>).source ?? root });
      return;
    }
    items.push({ kind: 'value', value: JSON.stringify(value) });
    return;
  }
  if (typeof value === 'number') {
    items.push({ kind: 'value', value, integer: Number.isInteger(value) });
    return;
  }
  if (typeof value === 'string' || typeof value === 'boolean') {
    items.push({ kind: 'value', value });
    return;
  }
  items.push({ kind: 'value', value: String(value) });
}

/** The fast path's items as XPathItems, made directly (one object per item). */
const XPATH_ITEMS: FastItemMaker<unknown, XPathItem<unknown>> = {
  node: (node) => ({ kind: 'node', node }),
  attribute: (owner, namespaceUri, localName, value) => ({ kind: 'attribute', owner, namespaceUri, localName, value }),
  value: (value) =>
    typeof value === 'number' ? { kind: 'value', value, integer: Number.isInteger(value) } : { kind: 'value', value },
};

/** What the one-tree check needs: the names of the windows applications list, whether the context is one. */
function oneTreeShape<N>(tree: XdmTree<N>, context: N): OneTreeShape {
  const windowNames = new Set<string>();
  let contextIsApplication = false;
  for (const child of tree.children(tree.root)) {
    if (tree.namespaceUri(child) !== NAMESPACE_URIS.app) continue;
    if (child === context) contextIsApplication = true;
    for (const window of tree.children(child))
      if (tree.parent(window) !== child) windowNames.add(`{${tree.namespaceUri(window)}}${tree.localName(window)}`);
  }
  return { contextIsApplication, windowNames };
}

export interface EvaluationOutcome<N> {
  items: XPathItem<N>[];
  engine: XPathEngine;
}

/**
 * Evaluates XPath 3.1 over a tree: the compiled fast path when the query is in its subset, fontoxpath (asked for
 * through `loadFontoxpath` only then) otherwise. Both give the same answer (a differential test holds them to it):
 * fontoxpath sees the tree without its alias edges (dom-facade.ts), and a query it would answer differently there is
 * refused with an error naming the step (one-tree.ts). Errors carry the position in the query.
 */
export function evaluateOverTreeWith<N>(
  loadFontoxpath: () => Fontoxpath,
  tree: XdmTree<N>,
  xpath: string,
  context: N,
  onItem?: (item: XPathItem<N>) => void,
  /** Called with the chosen engine before it runs (a caller that stops the evaluation early still learns it). */
  prepare?: (engine: XPathEngine) => void,
): EvaluationOutcome<N> {
  if (xpath.trim() === '')
    throw new InspectorError('xpath-syntax', 'The XPath expression is empty', { position: positionAt(xpath, 0) });
  checkXPathNesting(xpath);
  let fast: ReturnType<typeof compileFastPath>;
  try {
    fast = compileFastPath(xpath);
  } catch (error) {
    throw isStackOverflow(error) ? tooComplex(xpath) : error;
  }
  if (fast) {
    prepare?.('fast');
    try {
      const items: XPathItem<N>[] = [];
      for (const item of fast.evaluateAs(tree, context, XPATH_ITEMS as FastItemMaker<N, XPathItem<N>>))
        items.push(item);
      if (onItem) for (const item of items) onItem(item);
      return { items, engine: 'fast' };
    } catch (error) {
      // The fast path stops where XPath might raise a dynamic error; fontoxpath then gives the exact answer or error.
      if (!(error instanceof FastPathFallback)) throw error;
    }
  }
  prepare?.('fontoxpath');
  const items = evaluateWithFontoxpath(loadFontoxpath(), tree, xpath, context);
  if (onItem) for (const item of items) onItem(item);
  return { items, engine: 'fontoxpath' };
}

/**
 * fontoxpath's answer over the tree without its alias edges, or the one-tree error (one-tree.ts) where that answer
 * could differ from the tree's: what evaluateOverTreeWith answers when the fast path declines (and the reference of
 * the differential test).
 */
export function evaluateWithFontoxpath<N>(
  fontoxpath: Fontoxpath,
  tree: XdmTree<N>,
  xpath: string,
  context: N,
): XPathItem<N>[] {
  const { evaluateXPath } = fontoxpath;
  checkOneTree(fontoxpath, xpath, oneTreeShape(tree, context));
  const facade = new XdmDomFacade(tree);
  let raw: unknown;
  try {
    raw = evaluateXPath(
      rewriteControlAttributeTests(xpath),
      facade.wrap(context),
      // The facade works on its own wrapper objects; fontoxpath only hands back what the facade gave it.
      facade as unknown as IDomFacade,
      null,
      evaluateXPath.ALL_RESULTS_TYPE,
      {
        debug: true,
        language: evaluateXPath.XPATH_3_1_LANGUAGE,
        namespaceResolver: resolveStaticPrefix,
      },
    );
  } catch (error) {
    throw isStackOverflow(error) ? tooComplex(xpath) : toXPathError(error, xpath);
  }
  const items: XPathItem<N>[] = [];
  fromFontoxpath(raw, items, tree.root);
  return items;
}
