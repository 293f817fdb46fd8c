/**
 * Compiles the subset's AST into closures that evaluate directly over an XdmTree, streaming in document order.
 *
 * Node sequences are pull streams (`() => item | undefined`) that are always in document order and distinct:
 * - a step over a single context is the context's axis stream (reverse axes are reversed into document order);
 * - attribute and self steps over a sorted stream stay sorted, so their results are emitted context by context;
 * - forward steps (child, descendant, following-sibling) merge the per-context streams lazily: every result of a
 *   context lies after that context, so whatever is pending before the next context can be emitted; duplicates
 *   (nested contexts, alias edges) are adjacent in the merged order and dropped;
 * - reverse steps (parent, ancestor, preceding-sibling) over several contexts are collected, sorted and deduped.
 * So `(//Button)[1]` walks the tree only up to the first button.
 *
 * Values follow XPath 3.1 general comparisons with untypedAtomic attribute values. Where XPath would raise a
 * dynamic error (an attribute value that does not cast to xs:double or xs:boolean, a sequence where one string
 * is expected) the fast path throws FastPathFallback and the caller re-runs the query with fontoxpath, which gives
 * the exact answer or the exact error.
 */
import type { ElementList, XdmTree } from '../tree.js';
import { AttrRef, compareAttrs, DocOrder, type Item } from './order.js';
import { REVERSE_AXES, type Axis, type Expr, type NodeTest, type Step } from './parser.js';

/** Thrown while evaluating when only fontoxpath can give the answer (a dynamic error in XPath terms). */
export class FastPathFallback extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'FastPathFallback';
  }
}

/** Thrown at compile time when the expression is outside the subset. */
export class NotCompilable extends Error {}

function unsupported(): never {
  throw new NotCompilable();
}

type U = unknown;
type It = Item<U>;
type Stream = () => It | undefined;

export interface Env {
  readonly tree: XdmTree<U>;
  readonly order: DocOrder<U>;
}

const EMPTY: Stream = () => undefined;

function one(x: It): Stream {
  let done = false;
  return () => {
    if (done) return undefined;
    done = true;
    return x;
  };
}

function fromArray(a: readonly It[]): Stream {
  let i = 0;
  return () => (i < a.length ? a[i++] : undefined);
}

function drain(s: Stream): It[] {
  const out: It[] = [];
  for (let x = s(); x !== undefined; x = s()) out.push(x);
  return out;
}

export interface NodesC {
  k: 'nodes';
  run(env: Env, ctx: It): Stream;
  /** At most one item for any context. */
  single: boolean;
  /** Only attributes (so it atomizes to untypedAtomic values). */
  attrOnly: boolean;
  /**
   * 'attr': attributes only; 'elem': no attributes (elements, the document); 'mixed': either. Sequences mixing
   * both are never sorted: fontoxpath's order between an attribute and elements is not a consistent one.
   */
  kind: 'attr' | 'elem' | 'mixed';
  /** Evaluation may throw FastPathFallback. */
  mayFail: boolean;
}
export interface ValueC {
  k: 'number' | 'string' | 'boolean';
  run(env: Env, ctx: It): number | string | boolean;
  mayFail: boolean;
}
export type Compiled = NodesC | ValueC;

// ---------------------------------------------------------------------------------------------------------------
// Casting untypedAtomic (attribute values), as XPath does for general comparisons.

const XML_WS = /^[ \t\r\n]+|[ \t\r\n]+$/g;
const DOUBLE = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

export function castDouble(v: string): number {
  const s = v.replace(XML_WS, '');
  if (DOUBLE.test(s)) return Number(s);
  if (s === 'INF' || s === '+INF') return Infinity;
  if (s === '-INF') return -Infinity;
  if (s === 'NaN') return NaN;
  throw new FastPathFallback('FORG0001', `cannot cast ${JSON.stringify(v)} to xs:double`);
}

export function castBoolean(v: string): boolean {
  const s = v.replace(XML_WS, '');
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  throw new FastPathFallback('FORG0001', `cannot cast ${JSON.stringify(v)} to xs:boolean`);
}

// ---------------------------------------------------------------------------------------------------------------
// Axes

function isAttr(x: It): x is AttrRef<U> {
  return x instanceof AttrRef;
}

/** Children in document order; an application's alias children (windows) are sorted by their real position. */
function childrenOf(env: Env, n: U): readonly U[] {
  const tree = env.tree;
  const kids = tree.children(n);
  for (let i = 0; i < kids.length; i++) {
    if (tree.parent(kids[i]) !== n) {
      return [...kids].sort((a, b) => env.order.compare(a, b));
    }
  }
  return kids;
}

type Test = (env: Env, x: It) => boolean;

function compileTest(test: NodeTest): Test {
  if (test.k === 'node') return () => true;
  const { ns, local } = test;
  const anyNs = ns === '*';
  const anyLocal = local === '*';
  if (anyNs && anyLocal) return (env, x) => !isAttr(x) && !env.tree.isDocument(x);
  if (anyNs) return (env, x) => !isAttr(x) && !env.tree.isDocument(x) && env.tree.localName(x) === local;
  if (anyLocal) return (env, x) => !isAttr(x) && !env.tree.isDocument(x) && env.tree.namespaceUri(x) === ns;
  return (env, x) =>
    !isAttr(x) && !env.tree.isDocument(x) && env.tree.localName(x) === local && env.tree.namespaceUri(x) === ns;
}

/** The test for nodes that can only be elements (children, descendants, siblings: never attributes or documents). */
function compileElementTest(test: NodeTest): Test {
  if (test.k === 'node') return () => true;
  const { ns, local } = test;
  if (ns === '*' && local === '*') return () => true;
  if (ns === '*') return (env, x) => env.tree.localName(x) === local;
  if (local === '*') return (env, x) => env.tree.namespaceUri(x) === ns;
  return (env, x) => env.tree.localName(x) === local && env.tree.namespaceUri(x) === ns;
}

/**
 * Preorder walk below `start` (alias edges followed only at `start`), items passing `test` (`selfTest`: start).
 * Alias edges are recognised per child list: a list whose first and last child have the listing node as their
 * parent is taken as the node's own children (the runtime lists either only alias windows, under an application,
 * or only real children); any other list is checked child by child.
 */
function descendants(env: Env, start: U, self: boolean, selfTest: Test, test: Test): Stream {
  const tree = env.tree;
  let emitSelf = self;
  // Stack of child lists (levels 0..sp); owners[l]: the node listing arrs[l], or null when every child counts.
  const arrs: (readonly U[])[] = [];
  const idx: number[] = [];
  const owners: (U | null)[] = [];
  let sp = -1;
  let expand: U | null = null; // node returned last, whose children are pushed on the next pull
  let started = false;
  const push = (kids: readonly U[], owner: U | null) => {
    sp++;
    arrs[sp] = kids;
    idx[sp] = 0;
    owners[sp] = owner;
  };
  return () => {
    if (emitSelf) {
      emitSelf = false;
      tree.checkCancelled();
      if (selfTest(env, start)) return start;
    }
    if (!started) {
      started = true;
      const kids = childrenOf(env, start);
      if (kids.length) push(kids, null);
    }
    for (;;) {
      if (expand !== null) {
        const kids = tree.children(expand);
        const k = kids.length;
        if (k) {
          const own = tree.parent(kids[0]) === expand && (k === 1 || tree.parent(kids[k - 1]) === expand);
          push(kids, own ? null : expand);
        }
        expand = null;
      }
      if (sp < 0) return undefined;
      const arr = arrs[sp]!;
      const i = idx[sp]!;
      if (i >= arr.length) {
        arrs[sp] = EMPTY_LIST;
        sp--;
        continue;
      }
      idx[sp] = i + 1;
      const n = arr[i];
      tree.checkCancelled();
      const owner = owners[sp];
      if (owner !== null && tree.parent(n) !== owner) continue; // alias edge below the start
      expand = n;
      if (test(env, n)) return n;
    }
  };
}

const EMPTY_LIST: readonly U[] = [];

/** The elements of an index list, in its (document) order; cancellation is checked at every element. */
function indexed(env: Env, list: ElementList<U>): Stream {
  const tree = env.tree;
  let i = 0;
  if (Array.isArray(list)) {
    // Arrays apart from lazy lists: one kind of list per call site keeps `//Button` a plain array loop.
    const array = list as readonly U[];
    return () => {
      if (i >= array.length) return undefined;
      tree.checkCancelled();
      return array[i++];
    };
  }
  return () => {
    tree.checkCancelled();
    return list.at(i++);
  };
}

function filtered(env: Env, list: readonly U[], test: Test, from: number, to: number, dir: 1 | -1): Stream {
  let i = from;
  return () => {
    while (dir > 0 ? i < to : i > to) {
      const n = list[i];
      i += dir;
      env.tree.checkCancelled();
      if (test(env, n)) return n;
    }
    return undefined;
  };
}

function siblings(env: Env, c: It, following: boolean, test: Test): Stream {
  if (isAttr(c)) return EMPTY;
  const tree = env.tree;
  const p = tree.parent(c);
  if (p === null) return EMPTY;
  const kids = tree.children(p);
  const at = kids.indexOf(c);
  if (at < 0) return EMPTY;
  const realTest: Test = (e, x) => tree.parent(x) === p && test(e, x);
  return following
    ? filtered(env, kids, realTest, at + 1, kids.length, 1)
    : filtered(env, kids, realTest, at - 1, -1, -1);
}

function ancestors(env: Env, c: It, self: boolean, test: Test): Stream {
  let cur: It | null = self ? c : isAttr(c) ? c.owner : env.tree.parent(c);
  return () => {
    while (cur !== null) {
      const x: It = cur;
      env.tree.checkCancelled();
      cur = isAttr(x) ? x.owner : env.tree.parent(x);
      if (test(env, x)) return x;
    }
    return undefined;
  };
}

function attributeStream(test: NodeTest): (env: Env, c: It) => Stream {
  if (test.k === 'name' && test.ns !== '*' && test.local !== '*') {
    const { ns, local } = test;
    return (env, c) => {
      if (isAttr(c) || env.tree.isDocument(c)) return EMPTY;
      env.tree.checkCancelled();
      const v = env.tree.attribute(c, ns, local);
      return v === undefined ? EMPTY : one(new AttrRef(c, ns, local, v));
    };
  }
  const ns = test.k === 'name' ? test.ns : '*';
  const local = test.k === 'name' ? test.local : '*';
  return (env, c) => {
    if (isAttr(c) || env.tree.isDocument(c)) return EMPTY;
    env.tree.checkCancelled();
    const attrs = env.tree.attributes(c);
    const refs: AttrRef<U>[] = [];
    for (let i = 0; i < attrs.length; i++) {
      const a = attrs[i]!;
      if ((ns === '*' || a.namespaceUri === ns) && (local === '*' || a.localName === local))
        refs.push(new AttrRef(c, a.namespaceUri, a.localName, a, i));
    }
    if (refs.length > 1) refs.sort((x, y) => compareAttrs(x, y, (r) => r.index));
    return fromArray(refs);
  };
}

/** The namespace of `app:Application`. */
const APP_NAMESPACE = 'urn:platynui:app';

function axisStream(axis: Axis, test: NodeTest): (env: Env, c: It) => Stream {
  if (axis === 'attribute') return attributeStream(test);
  const t = compileTest(test);
  const et = compileElementTest(test);
  switch (axis) {
    case 'child':
      return (env, c) => {
        if (isAttr(c)) return EMPTY;
        const kids = childrenOf(env, c);
        return filtered(env, kids, et, 0, kids.length, 1);
      };
    case 'descendant':
    case 'descendant-or-self': {
      const self = axis === 'descendant-or-self';
      // `//Button` from the document: the tree's index by name, when it has one and holds the whole tree (the
      // document itself never passes a name test, so descendant-or-self lists the same elements).
      const named =
        test.k === 'name' && test.ns !== null && test.ns !== '*' && test.local !== '*'
          ? { ns: test.ns, local: test.local }
          : undefined;
      const applications = named?.ns === APP_NAMESPACE && named.local === 'Application';
      return (env, c) => {
        if (isAttr(c)) return self && t(env, c) ? one(c) : EMPTY;
        // Applications only at the top: `//app:Application` is the document's children, no walk (no whole desktop).
        if (applications && env.tree.applicationsOnlyAtTop && env.tree.isDocument(c)) {
          const kids = childrenOf(env, c);
          return filtered(env, kids, et, 0, kids.length, 1);
        }
        if (named && env.tree.elementsNamed && env.tree.isDocument(c)) {
          env.tree.checkCancelled();
          const list = env.tree.elementsNamed(named.ns, named.local);
          if (list) return indexed(env, list);
        }
        return descendants(env, c, self, t, et);
      };
    }
    case 'self':
      return (env, c) => {
        env.tree.checkCancelled();
        return t(env, c) ? one(c) : EMPTY;
      };
    case 'parent':
      return (env, c) => {
        env.tree.checkCancelled();
        const p = isAttr(c) ? c.owner : env.tree.parent(c);
        return p !== null && t(env, p) ? one(p) : EMPTY;
      };
    case 'ancestor':
    case 'ancestor-or-self':
      return (env, c) => ancestors(env, c, axis === 'ancestor-or-self', t);
    case 'following-sibling':
    case 'preceding-sibling':
      return (env, c) => siblings(env, c, axis === 'following-sibling', et);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Predicates

type PredC =
  | { k: 'nth'; n: number }
  | { k: 'last' }
  | { k: 'pos'; run(env: Env, x: It): number }
  | { k: 'bool'; run(env: Env, x: It): boolean };

/** What the context item of the expression being compiled can be (the items a predicate filters). */
let ctxKind: NodesC['kind'] = 'elem';

function compilePred(e: Expr, kind: NodesC['kind']): { pred: PredC; mayFail: boolean } {
  if (e.k === 'num') return { pred: { k: 'nth', n: e.v }, mayFail: false };
  if (e.k === 'last') return { pred: { k: 'last' }, mayFail: false };
  const saved = ctxKind;
  ctxKind = kind;
  let c: Compiled;
  try {
    c = compile(e);
  } finally {
    ctxKind = saved;
  }
  if (c.k === 'number') {
    const run = c.run as (env: Env, x: It) => number;
    return { pred: { k: 'pos', run }, mayFail: c.mayFail };
  }
  return { pred: { k: 'bool', run: ebv(c) }, mayFail: c.mayFail };
}

function isPositional(e: Expr): boolean {
  if (e.k === 'num' || e.k === 'last' || e.k === 'count') return true;
  return false;
}

function applyPreds(env: Env, s: Stream, preds: readonly PredC[]): Stream {
  for (const p of preds) s = applyPred(env, s, p);
  return s;
}

function applyPred(env: Env, s: Stream, p: PredC): Stream {
  switch (p.k) {
    case 'nth': {
      const n = p.n;
      if (!Number.isInteger(n) || n < 1) return EMPTY;
      let done = false;
      return () => {
        if (done) return undefined;
        done = true;
        for (let i = 1; ; i++) {
          const x = s();
          if (x === undefined || i === n) return x;
        }
      };
    }
    case 'last': {
      let done = false;
      return () => {
        if (done) return undefined;
        done = true;
        let last: It | undefined;
        for (let x = s(); x !== undefined; x = s()) last = x;
        return last;
      };
    }
    case 'pos': {
      let i = 0;
      const run = p.run;
      return () => {
        for (let x = s(); x !== undefined; x = s()) {
          i++;
          if (run(env, x) === i) return x;
        }
        return undefined;
      };
    }
    case 'bool': {
      const run = p.run;
      return () => {
        for (let x = s(); x !== undefined; x = s()) if (run(env, x)) return x;
        return undefined;
      };
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Steps over a stream of contexts

function mergeForward(
  env: Env,
  input: Stream,
  per: (env: Env, c: It) => Stream,
  skipNested: boolean,
  childAxis: boolean,
): Stream {
  const order = env.order;
  const tree = env.tree;
  const heads: It[] = [];
  const rests: Stream[] = [];
  const contexts: It[] = [];
  /**
   * Without document order keys: a real child `h` of context `c` comes before the next context `n` when `n` is
   * not inside `c` (contexts come in document order, so `n` then follows all of `c`'s subtree).
   */
  const before = (h: It, c: It, n: It): boolean => {
    if (!childAxis || isAttr(n) || isAttr(c) || tree.parent(h) !== c) return order.compare(h, n) < 0;
    for (let p: U | null = n; p !== null; p = tree.parent(p)) if (p === c) return order.compare(h, n) < 0;
    return true;
  };
  let next = input();
  let last: It | undefined;
  let cover: U | undefined; // last context whose descendant stream covers its whole subtree
  const covered = (c: It): boolean => {
    if (cover === undefined || isAttr(c)) return false;
    for (let p = env.tree.parent(c); p !== null; p = env.tree.parent(p)) if (p === cover) return true;
    return false;
  };
  return () => {
    for (;;) {
      if (heads.length) {
        let m = 0;
        for (let i = 1; i < heads.length; i++) if (order.compare(heads[i]!, heads[m]!) < 0) m = i;
        const h = heads[m]!;
        if (next === undefined || (heads.length === 1 ? before(h, contexts[0]!, next) : order.compare(h, next) < 0)) {
          const r = rests[m]!();
          if (r === undefined) {
            heads.splice(m, 1);
            rests.splice(m, 1);
            contexts.splice(m, 1);
          } else heads[m] = r;
          if (last !== undefined && order.same(last, h)) continue;
          last = h;
          return h;
        }
      }
      if (next === undefined) return undefined;
      const c = next;
      next = input();
      env.tree.checkCancelled();
      if (skipNested) {
        if (covered(c)) continue;
        if (!isAttr(c)) cover = c;
      }
      const s = per(env, c);
      const h = s();
      if (h !== undefined) {
        heads.push(h);
        rests.push(s);
        contexts.push(c);
      }
    }
  };
}

function concatPer(env: Env, input: Stream, per: (env: Env, c: It) => Stream): Stream {
  let cur: Stream = EMPTY;
  return () => {
    for (;;) {
      const x = cur();
      if (x !== undefined) return x;
      const c = input();
      if (c === undefined) return undefined;
      cur = per(env, c);
    }
  };
}

function sortedDistinct(env: Env, items: It[]): It[] {
  items.sort((a, b) => env.order.compare(a, b));
  const out: It[] = [];
  for (const x of items) if (!out.length || !env.order.same(out[out.length - 1]!, x)) out.push(x);
  return out;
}

function compileStep(inp: NodesC, step: Step): NodesC {
  const axisS = axisStream(step.axis, step.test);
  let kind: NodesC['kind'] = 'elem';
  if (step.axis === 'attribute') kind = 'attr';
  else if (step.test.k === 'node' && (step.axis === 'self' || step.axis === 'descendant-or-self')) kind = inp.kind;
  else if (step.test.k === 'node' && step.axis === 'ancestor-or-self') kind = inp.kind === 'elem' ? 'elem' : 'mixed';
  if (kind === 'mixed' && !inp.single && step.axis !== 'self') unsupported();
  const compiledPreds = step.preds.map((p) => compilePred(p, kind));
  const preds = compiledPreds.map((p) => p.pred);
  const mayFail = inp.mayFail || compiledPreds.some((p) => p.mayFail);
  let per = preds.length ? (env: Env, c: It) => applyPreds(env, axisS(env, c), preds) : axisS;
  const byName = nameLookup(step);
  if (byName) {
    // `//Button[@Name='OK'][...]` from the document: the index's elements with that name, then the other predicates.
    const { ns, local, name } = byName;
    const rest = preds.slice(1);
    const walk = per;
    per = (env, c) => {
      const tree = env.tree;
      if (tree.elementsNamed && !isAttr(c) && tree.isDocument(c)) {
        tree.checkCancelled();
        const list = tree.elementsNamed(ns, local, name);
        if (list) return rest.length ? applyPreds(env, indexed(env, list), rest) : indexed(env, list);
      }
      return walk(env, c);
    };
  }
  const reverse = REVERSE_AXES.has(step.axis);
  const attrOnly = kind === 'attr';
  const singleOut =
    inp.single &&
    (step.axis === 'self' ||
      step.axis === 'parent' ||
      preds.some((p) => p.k === 'nth' || p.k === 'last') ||
      (step.axis === 'attribute' && step.test.k === 'name' && step.test.ns !== '*' && step.test.local !== '*'));
  let run: NodesC['run'];
  if (inp.single) {
    run = reverse
      ? (env, ctx) => {
          const c = inp.run(env, ctx)();
          if (c === undefined) return EMPTY;
          const a = drain(per(env, c));
          a.reverse();
          return fromArray(a);
        }
      : (env, ctx) => {
          const c = inp.run(env, ctx)();
          return c === undefined ? EMPTY : per(env, c);
        };
  } else if (step.axis === 'attribute' || step.axis === 'self') {
    run = (env, ctx) => concatPer(env, inp.run(env, ctx), per);
  } else if (reverse) {
    run = (env, ctx) => {
      const input = inp.run(env, ctx);
      const all: It[] = [];
      for (let c = input(); c !== undefined; c = input()) {
        const s = per(env, c);
        for (let x = s(); x !== undefined; x = s()) all.push(x);
      }
      return fromArray(sortedDistinct(env, all));
    };
  } else {
    const skip = step.axis.startsWith('desc') && !preds.some((p) => p.k !== 'bool');
    const childAxis = step.axis === 'child';
    run = (env, ctx) =>
      childAxis && env.tree.documentPosition
        ? childrenSorted(env, inp.run(env, ctx), per)
        : mergeForward(env, inp.run(env, ctx), per, skip, childAxis);
  }
  return { k: 'nodes', run, single: singleOut, attrOnly, kind, mayFail };
}

/**
 * A child step from several contexts over a tree that does not change (one that gives document positions): every
 * context's children collected, then sorted by position, instead of merging a stream per context (which compares
 * each result with the heads of every context still open: `//*[1]/*[2]` keeps one per level of nesting).
 */
function childrenSorted(env: Env, input: Stream, per: (env: Env, c: It) => Stream): Stream {
  const tree = env.tree;
  const position = tree.documentPosition!;
  const found: U[] = [];
  for (let c = input(); c !== undefined; c = input()) {
    tree.checkCancelled();
    const s = per(env, c);
    for (let x = s(); x !== undefined; x = s()) found.push(x);
  }
  return fromArray(distinctInDocumentOrder(found, (x) => position.call(tree, x)));
}

/**
 * Nodes sorted by document position, each once: the positions read once per node (not twice per comparison), and
 * no sort at all when they come in order already.
 */
function distinctInDocumentOrder(found: readonly U[], position: (x: U) => number): U[] {
  const keys = new Float64Array(found.length);
  let ordered = true;
  for (let i = 0; i < found.length; i++) {
    keys[i] = position(found[i]);
    if (i > 0 && keys[i - 1]! > keys[i]!) ordered = false;
  }
  const order = Array.from(found.keys());
  if (!ordered) order.sort((a, b) => keys[a]! - keys[b]!);
  const out: U[] = [];
  for (let i = 0; i < order.length; i++) {
    const x = found[order[i]!]!;
    if (i === 0 || found[order[i - 1]!] !== x) out.push(x);
  }
  return out;
}

/**
 * A descendant step with an exact element name whose first predicate is `@Name = 'literal'` (either way round): the
 * name and the literal, for an index lookup. The comparison is a string one (untypedAtomic against xs:string).
 */
function nameLookup(step: Step): { ns: string; local: string; name: string } | undefined {
  if (step.axis !== 'descendant' && step.axis !== 'descendant-or-self') return undefined;
  const t = step.test;
  if (t.k !== 'name' || t.ns === null || t.ns === '*' || t.local === '*') return undefined;
  const p = step.preds[0];
  if (!p || p.k !== 'cmp' || p.op !== '=') return undefined;
  const isName = (e: Expr) => {
    const a = simpleAttr(e);
    return a !== undefined && a.ns === null && a.local === 'Name';
  };
  const literal = p.l.k === 'str' && isName(p.r) ? p.l.v : p.r.k === 'str' && isName(p.l) ? p.r.v : undefined;
  return literal === undefined ? undefined : { ns: t.ns, local: t.local, name: literal };
}

/**
 * `//T[n]` (descendant-or-self::node()/child::T with a positional predicate, which stays two steps) from a single
 * context over a tree that does not change (one that gives document positions): one walk below the context, each
 * node's children filtered, the results sorted by position, instead of merging a stream per node of the tree.
 */
function childrenBelow(inp: NodesC, dos: Step, child: Step): NodesC {
  const general = compileStep(compileStep(inp, dos), child);
  if (!inp.single) return general;
  const test = compileElementTest(child.test);
  const preds = child.preds.map((p) => compilePred(p, 'elem').pred);
  const nth = preds.length === 1 && preds[0]!.k === 'nth' ? preds[0]!.n : undefined;
  const t = child.test;
  const named =
    t.k === 'name' && t.ns !== null && t.ns !== '*' && t.local !== '*' ? { ns: t.ns, local: t.local } : undefined;
  return {
    ...general,
    run: (env, ctx) => {
      const tree = env.tree;
      const position = tree.documentPosition;
      if (!position) return general.run(env, ctx);
      const start = inp.run(env, ctx)();
      // An attribute's descendant-or-self is itself, which has no children.
      if (start === undefined || isAttr(start)) return EMPTY;
      const found: U[] = [];
      const collect = (kids: readonly U[]) => {
        if (kids.length === 0) return;
        if (nth !== undefined) {
          let seen = 0;
          for (const kid of kids) if (test(env, kid) && ++seen === nth) return void found.push(kid);
          return;
        }
        const s = applyPreds(env, filtered(env, kids, test, 0, kids.length, 1), preds);
        for (let x = s(); x !== undefined; x = s()) found.push(x);
      };
      const atDocument = tree.isDocument(start);
      const key =
        atDocument && nth !== undefined ? `${t.k === 'name' ? `${t.ns}\u0000${t.local}` : t.k}\u0000${nth}` : '';
      const known = key ? documentNths.get(tree)?.get(key) : undefined;
      if (known) return fromArray(known);
      if (atDocument) {
        const parents = named ? parentsOfNamed(env, named.ns, named.local) : undefined;
        if (parents) for (const parent of parents) collect(childrenOf(env, parent));
        else for (const kids of childListsBelow(env, start)) collect(kids);
      } else for (const kids of walkChildLists(env, start)) collect(kids);
      const distinct = distinctInDocumentOrder(found, (x) => position.call(tree, x));
      if (key) {
        let byKey = documentNths.get(tree);
        if (!byKey) documentNths.set(tree, (byKey = new Map()));
        if (byKey.size < DOCUMENT_NTHS_KEPT) byKey.set(key, distinct);
      }
      return fromArray(distinct);
    },
  };
}

/**
 * The non-empty child lists of the start and of every node below it, in no particular order: the start's children
 * all count (alias edges are followed at the start only), below them only real children.
 */
function walkChildLists(env: Env, start: U): (readonly U[])[] {
  const tree = env.tree;
  const lists: (readonly U[])[] = [];
  const stack: U[] = [start];
  while (stack.length > 0) {
    const node = stack.pop();
    tree.checkCancelled();
    const kids = childrenOf(env, node);
    if (kids.length > 0) lists.push(kids);
    for (const kid of tree.children(node)) if (node === start || tree.parent(kid) === node) stack.push(kid);
  }
  return lists;
}

/**
 * `//T[n]` from the document, once per tree that does not change (one that gives document positions), test and n:
 * locator verification asks for `//*[2]`, `//*[3]`... again with every candidate.
 */
const documentNths = new WeakMap<object, Map<string, readonly U[]>>();
/** At most this many `//T[n]` answers kept per tree: a long-lived tree's queries cannot grow them without bound. */
const DOCUMENT_NTHS_KEPT = 1000;

/** walkChildLists of the document, once per tree that does not change (one that gives document positions). */
const documentChildLists = new WeakMap<object, (readonly U[])[]>();

function childListsBelow(env: Env, document: U): (readonly U[])[] {
  const tree = env.tree as object;
  let lists = documentChildLists.get(tree);
  if (!lists) documentChildLists.set(tree, (lists = walkChildLists(env, document)));
  return lists;
}

/**
 * The parents of the document's elements named {ns}local, from the tree's index; undefined without an index, or
 * when one of them is top-level (its parent the document: applications list it again, as an alias child).
 */
function parentsOfNamed(env: Env, ns: string, local: string): Set<U> | undefined {
  const tree = env.tree;
  const list = tree.elementsNamed?.(ns, local);
  if (!list) return undefined;
  const parents = new Set<U>();
  for (let i = 0, e = list.at(0); e !== undefined; e = list.at(++i)) {
    const parent = tree.parent(e);
    if (parent === null || tree.isDocument(parent)) return undefined;
    parents.add(parent);
  }
  return parents;
}

function isDos(s: Step): boolean {
  return s.axis === 'descendant-or-self' && s.test.k === 'node' && s.preds.length === 0;
}

/** `descendant-or-self::node()/child::T[p]` is `descendant::T[p]` when no predicate depends on position. */
function rewrite(steps: readonly Step[]): Step[] {
  const out: Step[] = [];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i]!;
    const n = steps[i + 1];
    if (isDos(s) && n && n.axis === 'child' && !n.preds.some(isPositional)) {
      out.push({ axis: 'descendant', test: n.test, preds: n.preds });
      i++;
    } else out.push(s);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Expressions

const ROOT: NodesC = {
  k: 'nodes',
  run: (env, ctx) => {
    // The root of the context's tree: the document node above the desktop.
    let r: It = ctx;
    for (;;) {
      const p: It | null = isAttr(r) ? r.owner : env.tree.parent(r);
      if (p === null) break;
      r = p;
    }
    return env.tree.isDocument(r) ? one(r) : fail('XPDY0050', 'the root of the context is not a document node');
  },
  single: true,
  attrOnly: false,
  kind: 'elem',
  mayFail: false,
};

function fail(code: string, message: string): never {
  throw new FastPathFallback(code, message);
}

function contextItem(): NodesC {
  return {
    k: 'nodes',
    run: (_env, ctx) => one(ctx),
    single: true,
    attrOnly: ctxKind === 'attr',
    kind: ctxKind,
    mayFail: false,
  };
}

function compileNodes(e: Expr): NodesC {
  const c = compile(e);
  if (c.k !== 'nodes') unsupported();
  return c;
}

function ebv(c: Compiled): (env: Env, x: It) => boolean {
  switch (c.k) {
    case 'nodes':
      return (env, x) => c.run(env, x)() !== undefined;
    case 'boolean':
      return c.run as (env: Env, x: It) => boolean;
    case 'string':
      return (env, x) => c.run(env, x) !== '';
    case 'number':
      return (env, x) => {
        const v = c.run(env, x) as number;
        return v !== 0 && !Number.isNaN(v);
      };
  }
}

type AtomType = 'u' | 's' | 'n' | 'b';
interface Operand {
  t: AtomType;
  /** untyped: the attribute values; else a single typed value. */
  run(env: Env, x: It): readonly (string | number | boolean)[];
  /** For the common `@Name op literal`: a direct attribute read. */
  attr?: { ns: string | null; local: string };
  literal?: string | number | boolean;
  mayFail: boolean;
}

function operand(e: Expr): Operand {
  if (e.k === 'str' || e.k === 'num' || e.k === 'bool') {
    const v = [e.v];
    return { t: e.k === 'str' ? 's' : e.k === 'num' ? 'n' : 'b', run: () => v, literal: e.v, mayFail: false };
  }
  const c = compile(e);
  if (c.k === 'nodes') {
    if (!c.attrOnly) unsupported(); // element atomization: leave to fontoxpath
    const op: Operand = {
      t: 'u',
      run: (env, x) => {
        const s = c.run(env, x);
        const out: string[] = [];
        for (let a = s(); a !== undefined; a = s()) out.push((a as AttrRef<U>).value);
        return out;
      },
      mayFail: c.mayFail,
    };
    const simple = simpleAttr(e);
    if (simple) op.attr = simple;
    return op;
  }
  const run = c.run;
  return {
    t: c.k === 'string' ? 's' : c.k === 'number' ? 'n' : 'b',
    run: (env, x) => [run(env, x)],
    mayFail: c.mayFail,
  };
}

function simpleAttr(e: Expr): { ns: string | null; local: string } | undefined {
  if (e.k !== 'path' || e.start !== 'context' || e.steps.length !== 1) return undefined;
  const s = e.steps[0]!;
  if (s.axis !== 'attribute' || s.preds.length || s.test.k !== 'name') return undefined;
  if (s.test.ns === '*' || s.test.local === '*') return undefined;
  return { ns: s.test.ns, local: s.test.local };
}

function compileCmp(op: '=' | '!=', le: Expr, re: Expr): ValueC {
  const l = operand(le);
  const r = operand(re);
  const eq = op === '=';
  // Static types: untypedAtomic adapts to the other side; typed values must agree (else a type error: fontoxpath).
  let mode: 's' | 'n' | 'b';
  if (l.t === 'u' && r.t === 'u') mode = 's';
  else if (l.t === 'u') mode = r.t as 's' | 'n' | 'b';
  else if (r.t === 'u') mode = l.t as 's' | 'n' | 'b';
  else if (l.t === r.t) mode = l.t as 's' | 'n' | 'b';
  else unsupported();
  const mayFail = l.mayFail || r.mayFail || (mode !== 's' && (l.t === 'u' || r.t === 'u'));
  const cast = mode === 'n' ? castDouble : mode === 'b' ? castBoolean : (v: string) => v;
  // Fast form: `@Name = 'literal'` and friends read one attribute directly.
  const direct = (a: Operand, lit: Operand): ValueC | undefined => {
    if (!a.attr || lit.literal === undefined) return undefined;
    const { ns, local } = a.attr;
    const litV = lit.literal;
    return {
      k: 'boolean',
      mayFail,
      run: (env, x) => {
        if (isAttr(x) || env.tree.isDocument(x)) return false;
        const v = env.tree.attribute(x, ns, local);
        if (v === undefined) return false;
        const cv = mode === 's' ? v : cast(v);
        return eq ? cv === litV : cv !== litV;
      },
    };
  };
  const d = direct(l, r) ?? direct(r, l);
  if (d) return d;
  const conv = (o: Operand) =>
    o.t === 'u' && mode !== 's' ? (v: string | number | boolean) => cast(v as string) : null;
  const lc = conv(l);
  const rc = conv(r);
  return {
    k: 'boolean',
    mayFail,
    run: (env, x) => {
      let lv = l.run(env, x);
      let rv = r.run(env, x);
      // Cast every value first: XPath may raise on any pair, so never answer where fontoxpath might raise.
      if (lc) lv = lv.map(lc);
      if (rc) rv = rv.map(rc);
      for (const a of lv) for (const b of rv) if (eq ? a === b : a !== b) return true;
      return false;
    },
  };
}

/** A string argument (`xs:string?`): a literal or an attribute path yielding at most one attribute. */
function stringArg(e: Expr): { run(env: Env, x: It): string; mayFail: boolean } {
  if (e.k === 'str') {
    const v = e.v;
    return { run: () => v, mayFail: false };
  }
  const c = compile(e);
  if (c.k === 'string') return { run: c.run as (env: Env, x: It) => string, mayFail: c.mayFail };
  if (c.k !== 'nodes' || !c.attrOnly) unsupported();
  return {
    run: (env, x) => {
      const s = c.run(env, x);
      const a = s();
      if (a === undefined) return '';
      if (s() !== undefined) fail('XPTY0004', 'a sequence of more than one item where one string is expected');
      return (a as AttrRef<U>).value;
    },
    mayFail: c.mayFail || !c.single,
  };
}

/** Compiles a whole query: its context item is a node (never an attribute). */
export function compileQuery(e: Expr): Compiled {
  ctxKind = 'elem';
  return compile(e);
}

export function compile(e: Expr): Compiled {
  switch (e.k) {
    case 'str':
    case 'num':
    case 'bool': {
      const v = e.v;
      return { k: e.k === 'str' ? 'string' : e.k === 'num' ? 'number' : 'boolean', run: () => v, mayFail: false };
    }
    case 'last':
      return unsupported(); // only as a whole predicate, handled there
    case 'count': {
      const a = compileNodes(e.a);
      return {
        k: 'number',
        mayFail: a.mayFail,
        run: (env, x) => {
          const s = a.run(env, x);
          let n = 0;
          while (s() !== undefined) n++;
          return n;
        },
      };
    }
    case 'not': {
      const a = compile(e.a);
      const f = ebv(a);
      return { k: 'boolean', mayFail: a.mayFail, run: (env, x) => !f(env, x) };
    }
    case 'and':
    case 'or': {
      const l = compile(e.l);
      const r = compile(e.r);
      const lf = ebv(l);
      const rf = ebv(r);
      const mayFail = l.mayFail || r.mayFail;
      const isAnd = e.k === 'and';
      // When either side may raise, evaluate both: fontoxpath may evaluate them in either order.
      const run = mayFail
        ? isAnd
          ? (env: Env, x: It) => {
              const a = lf(env, x);
              const b = rf(env, x);
              return a && b;
            }
          : (env: Env, x: It) => {
              const a = lf(env, x);
              const b = rf(env, x);
              return a || b;
            }
        : isAnd
          ? (env: Env, x: It) => lf(env, x) && rf(env, x)
          : (env: Env, x: It) => lf(env, x) || rf(env, x);
      return { k: 'boolean', mayFail, run };
    }
    case 'contains':
    case 'starts-with': {
      const a = stringArg(e.a);
      const b = stringArg(e.b);
      const contains = e.k === 'contains';
      return {
        k: 'boolean',
        mayFail: a.mayFail || b.mayFail,
        run: (env, x) => {
          const av = a.run(env, x);
          const bv = b.run(env, x);
          return contains ? av.includes(bv) : av.startsWith(bv);
        },
      };
    }
    case 'cmp':
      return compileCmp(e.op, e.l, e.r);
    case 'union': {
      const items = e.items.map(compileNodes);
      const kind = items[0]!.kind;
      if (kind === 'mixed' || items.some((i) => i.kind !== kind)) unsupported();
      const mayFail = items.some((i) => i.mayFail);
      return {
        k: 'nodes',
        single: false,
        attrOnly: kind === 'attr',
        kind,
        mayFail,
        run: (env, x) => {
          const streams = items.map((i) => i.run(env, x));
          const heads = streams.map((s) => s());
          let last: It | undefined;
          return () => {
            for (;;) {
              let m = -1;
              for (let i = 0; i < heads.length; i++) {
                const h = heads[i];
                if (h !== undefined && (m < 0 || env.order.compare(h, heads[m]!) < 0)) m = i;
              }
              if (m < 0) return undefined;
              const h = heads[m]!;
              heads[m] = streams[m]!();
              if (last !== undefined && env.order.same(last, h)) continue;
              last = h;
              return h;
            }
          };
        },
      };
    }
    case 'filter': {
      const base = compileNodes(e.base);
      const cp = e.preds.map((p) => compilePred(p, base.kind));
      const preds = cp.map((p) => p.pred);
      return {
        k: 'nodes',
        single: base.single || preds.some((p) => p.k === 'nth' || p.k === 'last'),
        attrOnly: base.attrOnly,
        kind: base.kind,
        mayFail: base.mayFail || cp.some((p) => p.mayFail),
        run: (env, x) => applyPreds(env, base.run(env, x), preds),
      };
    }
    case 'path': {
      let cur: NodesC = e.start === 'root' ? ROOT : e.start === 'context' ? contextItem() : compileNodes(e.start);
      const steps = rewrite(e.steps);
      for (let i = 0; i < steps.length; i++) {
        const s = steps[i]!;
        const next = steps[i + 1];
        if (isDos(s) && next?.axis === 'child') {
          cur = childrenBelow(cur, s, next);
          i++;
        } else cur = compileStep(cur, s);
      }
      return cur;
    }
  }
}
