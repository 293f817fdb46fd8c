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

/**
 * Receives an evaluation's items one call each, in order, so that a caller keeps them in its own form (the XPath
 * worker: node handles in a typed array) rather than as one object per item.
 */
export interface ItemSink<N> {
  node(node: N): void;
  attribute(owner: N, namespaceUri: string | null, localName: string, value: string): void;
  /** `integer`: for a number, whether it is one (xs:integer or xs:double). */
  value(value: XPathValue, integer?: boolean): void;
  /** Forgets the items received so far: the fast path gave up midway and fontoxpath answers instead. */
  reset(): void;
}

/** An ItemSink keeping the items as XPathItems. */
class ItemArray<N> implements ItemSink<N> {
  items: XPathItem<N>[] = [];
  node(node: N): void {
    this.items.push({ kind: 'node', node });
  }
  attribute(owner: N, namespaceUri: string | null, localName: string, value: string): void {
    this.items.push({ kind: 'attribute', owner, namespaceUri, localName, value });
  }
  value(value: XPathValue, integer?: boolean): void {
    this.items.push(integer === undefined ? { kind: 'value', value } : { kind: 'value', value, integer });
  }
  reset(): void {
    this.items = [];
  }
}

function fromFontoxpath<N>(value: unknown, sink: ItemSink<N>, root: N): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) {
    for (const entry of value) fromFontoxpath(entry, sink, root);
    return;
  }
  if (typeof value === 'object') {
    const candidate = value as { nodeType?: number; owner?: unknown };
    if (candidate.nodeType === 2 && 'owner' in candidate) {
      const attribute = value as FacadeAttribute<N>;
      sink.attribute(attribute.owner, attribute.namespaceURI, attribute.localName, attribute.value);
      return;
    }
    if (candidate.nodeType === 1 || candidate.nodeType === 9) {
      sink.node((value as FacadeElement<N>).source ?? root);
      return;
    }
    sink.value(JSON.stringify(value));
    return;
  }
  if (typeof value === 'number') sink.value(value, Number.isInteger(value));
  else if (typeof value === 'string' || typeof value === 'boolean') sink.value(value);
  else sink.value(String(value));
}

/** The fast path's items handed to a sink as they come (no object per item). */
function fastItemsInto<N>(sink: ItemSink<N>): FastItemMaker<N, void> {
  return {
    node: (node) => sink.node(node),
    attribute: (owner, namespaceUri, localName, value) => sink.attribute(owner, namespaceUri, localName, value),
    value: (value) => (typeof value === 'number' ? sink.value(value, Number.isInteger(value)) : sink.value(value)),
  };
}

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

/** evaluateIntoSink with the items kept as XPathItems. */
export function evaluateOverTreeWith<N>(
  loadFontoxpath: () => Fontoxpath,
  tree: XdmTree<N>,
  xpath: string,
  context: N,
): EvaluationOutcome<N> {
  const sink = new ItemArray<N>();
  const engine = evaluateIntoSink(loadFontoxpath, tree, xpath, context, sink);
  return { items: sink.items, engine };
}

/**
 * Evaluates XPath 3.1 over a tree into `sink`: the compiled fast path when the query is in its subset, fontoxpath
 * (asked for through `loadFontoxpath` only then) otherwise. Both give the same answer (a differential test holds
 * them to it): fontoxpath sees the tree without its alias edges (dom-facade.ts), and a query it would answer
 * differently there is refused with an error naming the step (one-tree.ts). Errors carry the position in the query.
 * Returns the engine that answered.
 */
export function evaluateIntoSink<N>(
  loadFontoxpath: () => Fontoxpath,
  tree: XdmTree<N>,
  xpath: string,
  context: N,
  sink: ItemSink<N>,
): XPathEngine {
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
    try {
      const items = fast.evaluateAs(tree, context, fastItemsInto(sink))[Symbol.iterator]();
      while (!items.next().done);
      return 'fast';
    } catch (error) {
      // The fast path stops where XPath might raise a dynamic error; fontoxpath then gives the exact answer or error.
      if (!(error instanceof FastPathFallback)) throw error;
      sink.reset();
    }
  }
  fontoxpathIntoSink(loadFontoxpath(), tree, xpath, context, sink);
  return 'fontoxpath';
}

/**
 * fontoxpath's answer over the tree without its alias edges, or the one-tree error (one-tree.ts) where that answer
 * could differ from the tree's: what evaluateIntoSink answers when the fast path declines (and the reference of
 * the differential test).
 */
export function evaluateWithFontoxpath<N>(
  fontoxpath: Fontoxpath,
  tree: XdmTree<N>,
  xpath: string,
  context: N,
): XPathItem<N>[] {
  const sink = new ItemArray<N>();
  fontoxpathIntoSink(fontoxpath, tree, xpath, context, sink);
  return sink.items;
}

function fontoxpathIntoSink<N>(
  fontoxpath: Fontoxpath,
  tree: XdmTree<N>,
  xpath: string,
  context: N,
  sink: ItemSink<N>,
): void {
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
  fromFontoxpath(raw, sink, tree.root);
}
