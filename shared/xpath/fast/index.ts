/**
 * The compiled XPath fast path: the common subset of XPath evaluated directly over an XdmTree, streaming in
 * document order, with exactly fontoxpath's answers (see shared/xpath/test/fast-path.differential.test.ts).
 *
 *   const q = compileFastPath(xpath, namespaces);   // undefined: outside the subset, use fontoxpath unchanged
 *   for (const item of q.evaluate(tree, context, { limit })) ...
 *
 * evaluate() may throw FastPathFallback (possibly after some items were produced): XPath would raise a dynamic
 * error there, or might, depending on evaluation order. Discard what was produced and evaluate with fontoxpath,
 * which then gives the exact answer or the exact error. Errors thrown by tree.checkCancelled() pass through.
 *
 * Subset: absolute and relative paths; axes child, descendant, descendant-or-self, self, parent, ancestor,
 * ancestor-or-self, following-sibling, preceding-sibling, attribute (abbreviated `//`, `.`, `..`, `@`); name
 * tests (unprefixed: the default element namespace, `urn:platynui:control`; prefixes from `namespaces`, by default
 * control/item/app/native), `*`, `prefix:*`, `*:local`, `node()`; predicates: attribute existence, `=`/`!=` on
 * attribute values, strings, numbers, booleans (`true()`, `false()`) and count(), `contains`, `starts-with`,
 * `and`, `or`, `not`, `[n]`, `[last()]`, `[count(...)]`; `count()`; unions (`|`, `union`); parenthesized
 * expressions with predicates, also as the first step of a path (`(//Button)[1]/@Name`).
 */
import type { XdmTree } from '../tree.js';
import { compileQuery, NotCompilable, type Compiled, type Env } from './compile.js';
import { AttrRef, DocOrder } from './order.js';
import { parseFastPath } from './parser.js';

export { FastPathFallback } from './compile.js';

export type FastItem<N> =
  | { readonly type: 'node'; readonly node: N }
  | {
      readonly type: 'attribute';
      readonly owner: N;
      readonly namespaceUri: string | null;
      readonly localName: string;
      readonly value: string;
    }
  | { readonly type: 'value'; readonly value: number | string | boolean };

export interface FastEvaluateOptions {
  /** Stop after this many items. */
  limit?: number;
}

export interface FastQuery {
  readonly source: string;
  /** 'nodes': a sequence of nodes and attributes; 'value': exactly one value item (count(), a comparison, ...). */
  readonly resultKind: 'nodes' | 'value';
  /**
   * False when evaluate() can never throw FastPathFallback (no comparison that casts attribute values to numbers
   * or booleans, no string argument that could be a sequence): then results can be streamed as they come.
   */
  readonly mayFallBack: boolean;
  /** Lazy: the tree is walked as the iterable is consumed. */
  evaluate<N>(tree: XdmTree<N>, context: N, options?: FastEvaluateOptions): Iterable<FastItem<N>>;
  /** evaluate(), with the caller's own item objects (one object per item, not a FastItem and then its own). */
  evaluateAs<N, T>(tree: XdmTree<N>, context: N, make: FastItemMaker<N, T>, options?: FastEvaluateOptions): Iterable<T>;
}

/** Makes the items evaluateAs() produces. */
export interface FastItemMaker<N, T> {
  node(node: N): T;
  attribute(owner: N, namespaceUri: string | null, localName: string, value: string): T;
  value(value: number | string | boolean): T;
}

const FAST_ITEMS: FastItemMaker<unknown, FastItem<unknown>> = {
  node: (node) => ({ type: 'node', node }),
  attribute: (owner, namespaceUri, localName, value) => ({ type: 'attribute', owner, namespaceUri, localName, value }),
  value: (value) => ({ type: 'value', value }),
};

export const DEFAULT_NAMESPACES: Readonly<Record<string, string>> = {
  control: 'urn:platynui:control',
  item: 'urn:platynui:item',
  app: 'urn:platynui:app',
  native: 'urn:platynui:native',
};

/**
 * Compiles `xpath` when it lies in the supported subset. `namespaces` maps prefixes to URIs (added to the four
 * PlatynUI prefixes); the '' entry, if present, is the default element namespace (else urn:platynui:control).
 */
export function compileFastPath(
  xpath: string,
  namespaces: Readonly<Record<string, string>> = {},
): FastQuery | undefined {
  const ns = { ...DEFAULT_NAMESPACES, ...namespaces };
  const ast = parseFastPath(xpath, {
    defaultElementNamespace: ns[''] ?? DEFAULT_NAMESPACES.control!,
    resolve: (p) => (p === '' ? undefined : Object.prototype.hasOwnProperty.call(ns, p) ? ns[p] : undefined),
  });
  if (!ast) return undefined;
  let compiled: Compiled;
  try {
    compiled = compileQuery(ast);
  } catch (e) {
    if (e instanceof NotCompilable) return undefined;
    throw e;
  }
  return new CompiledQuery(xpath, compiled);
}

class CompiledQuery implements FastQuery {
  readonly resultKind: 'nodes' | 'value';
  readonly mayFallBack: boolean;
  constructor(
    readonly source: string,
    private readonly compiled: Compiled,
  ) {
    this.resultKind = compiled.k === 'nodes' ? 'nodes' : 'value';
    this.mayFallBack = compiled.mayFail;
  }

  evaluate<N>(tree: XdmTree<N>, context: N, options: FastEvaluateOptions = {}): Iterable<FastItem<N>> {
    return this.evaluateAs(tree, context, FAST_ITEMS as FastItemMaker<N, FastItem<N>>, options);
  }

  evaluateAs<N, T>(
    tree: XdmTree<N>,
    context: N,
    make: FastItemMaker<N, T>,
    options: FastEvaluateOptions = {},
  ): Iterable<T> {
    const compiled = this.compiled;
    const limit = options.limit ?? Infinity;
    // Only elements (no attribute can come out): no per-item check for attributes.
    const elementsOnly = compiled.k === 'nodes' && compiled.kind === 'elem';
    return {
      [Symbol.iterator](): Iterator<T> {
        const t = tree as XdmTree<unknown>;
        let produced = 0;
        let stream: (() => unknown) | undefined;
        let done = limit <= 0;
        const end: IteratorResult<T> = { done: true, value: undefined };
        // One result object, refilled by every next(): consumers read `value` before they ask again.
        const result = { done: false, value: undefined as unknown as T };
        return {
          next(): IteratorResult<T> {
            if (done) return end;
            if (!stream) {
              t.checkCancelled();
              const env: Env = { tree: t, order: new DocOrder(t) };
              if (compiled.k !== 'nodes') {
                done = true;
                return { done: false, value: make.value(compiled.run(env, context)) };
              }
              stream = compiled.run(env, context);
            }
            const x = stream();
            if (x === undefined || ++produced >= limit) done = true;
            if (x === undefined) return end;
            result.value =
              !elementsOnly && x instanceof AttrRef
                ? make.attribute(x.owner as N, x.namespaceUri, x.localName, x.value)
                : make.node(x as N);
            return result;
          },
        };
      },
    };
  }
}
