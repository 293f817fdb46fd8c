import { NAMESPACE_URIS } from '../../model/namespaces.js';
import { resolveStaticPrefix } from '../namespaces.js';
import { parseFastPath, type Expr, type Step } from './parser.js';

/**
 * Which applications' trees an evaluation from the desktop may walk below their own node: none (the desktop's
 * children and their attributes answer it), the named ones, or all. A guess made before evaluating, so that what the
 * query will need starts loading while the engine starts; the evaluation itself never depends on it.
 */
export type ApplicationReach = { kind: 'none' } | { kind: 'all' } | { kind: 'named'; names: readonly string[] };

const NONE: ApplicationReach = { kind: 'none' };
const ALL: ApplicationReach = { kind: 'all' };

/** The fast path's syntax tree of an XPath with the static prefixes; undefined outside its subset or too deep. */
function parsed(xpath: string): Expr | undefined {
  try {
    return parseFastPath(xpath, {
      defaultElementNamespace: NAMESPACE_URIS.control,
      resolve: (prefix) => (prefix === '' ? undefined : (resolveStaticPrefix(prefix) ?? undefined)),
    });
  } catch {
    // Too deeply nested to parse here (the evaluation reports it).
    return undefined;
  }
}

/** The applications an XPath evaluated from the desktop may descend into (see ApplicationReach). */
export function applicationsReached(xpath: string): ApplicationReach {
  const ast = parsed(xpath);
  if (ast) return reachOf(ast);
  // Outside the fast path's subset: only a query that never descends stays on the desktop's children.
  return /\/\/|descendant|following|preceding/.test(xpath) ? ALL : NONE;
}

function reachOf(expr: Expr): ApplicationReach {
  if (expr.k === 'count') return reachOf(expr.a);
  if (expr.k === 'union') return combine(expr.items.map(reachOf));
  if (expr.k === 'path' && (expr.start === 'root' || expr.start === 'context')) {
    const scoped = scopedApplication(expr.steps);
    if (scoped) return depthAfter(scoped.rest, 1) >= 2 ? { kind: 'named', names: [scoped.name] } : NONE;
  }
  return depthReached(expr, 0) >= 2 ? ALL : NONE;
}

function combine(reaches: readonly ApplicationReach[]): ApplicationReach {
  if (reaches.some((reach) => reach.kind === 'all')) return ALL;
  const names = reaches.flatMap((reach) => (reach.kind === 'named' ? reach.names : []));
  return names.length > 0 ? { kind: 'named', names: [...new Set(names)] } : NONE;
}

/**
 * `app:Application[@Name='X']` as the path's first step (or after `//`: applications are children of the desktop
 * only), with the steps after it.
 */
function scopedApplication(steps: readonly Step[]): { name: string; rest: readonly Step[] } | undefined {
  const [first, second] = steps;
  const atApp = first?.axis === 'descendant-or-self' && first.test.k === 'node' && first.preds.length === 0 ? 1 : 0;
  const step = atApp === 1 ? second : first;
  if (!step || step.axis !== 'child' || step.test.k !== 'name') return undefined;
  if (step.test.ns !== NAMESPACE_URIS.app || step.test.local !== 'Application' || step.preds.length !== 1)
    return undefined;
  const name = namePredicate(step.preds[0]!);
  return name === undefined ? undefined : { name, rest: steps.slice(atApp + 1) };
}

/** X of `@Name = 'X'` (either side). */
function namePredicate(pred: Expr): string | undefined {
  if (pred.k !== 'cmp' || pred.op !== '=') return undefined;
  const [attribute, literal] = pred.l.k === 'str' ? [pred.r, pred.l] : [pred.l, pred.r];
  if (literal.k !== 'str' || attribute.k !== 'path' || attribute.start !== 'context') return undefined;
  const [step, ...more] = attribute.steps;
  if (more.length > 0 || step?.axis !== 'attribute' || step.preds.length > 0) return undefined;
  return step.test.k === 'name' && step.test.ns === null && step.test.local === 'Name' ? literal.v : undefined;
}

/** The deepest level below the desktop (0) any node the expression visits lies at, from a context at `depth`. */
function depthReached(expr: Expr, depth: number): number {
  switch (expr.k) {
    case 'path': {
      const start = expr.start === 'root' ? 0 : expr.start === 'context' ? depth : depthReached(expr.start, depth);
      return Math.max(start, depthAfter(expr.steps, start));
    }
    case 'union':
      return Math.max(depth, ...expr.items.map((item) => depthReached(item, depth)));
    case 'filter':
      return Math.max(depthReached(expr.base, depth), ...expr.preds.map((pred) => depthReached(pred, depth)));
    case 'cmp':
    case 'and':
    case 'or':
      return Math.max(depthReached(expr.l, depth), depthReached(expr.r, depth));
    case 'contains':
    case 'starts-with':
      return Math.max(depthReached(expr.a, depth), depthReached(expr.b, depth));
    case 'not':
    case 'count':
      return depthReached(expr.a, depth);
    default:
      return depth;
  }
}

/** depthReached of these steps taken from a node at `depth`, their predicates included. */
function depthAfter(steps: readonly Step[], depth: number): number {
  let at = depth;
  let deepest = depth;
  for (const step of steps) {
    switch (step.axis) {
      case 'child':
        at += 1;
        break;
      case 'descendant':
      case 'descendant-or-self':
        at = Number.POSITIVE_INFINITY;
        break;
      case 'parent':
      case 'ancestor':
      case 'ancestor-or-self':
        // Upwards the depth is not known once below: treat as anywhere above, which stays within what was reached.
        at = Number.isFinite(at) ? Math.max(0, at - 1) : at;
        break;
      default:
        break;
    }
    deepest = Math.max(deepest, at);
    for (const pred of step.preds) deepest = Math.max(deepest, depthReached(pred, at));
  }
  return deepest;
}

/**
 * The applications whose trees a walk of every subtree an XPath selects (a check) may load: those the XPath's
 * nodes' descendants are in (`xpath//*`), all of them without an XPath (the desktop) or for a union (whose parts the
 * suffix would not all reach).
 */
export function subtreesReached(xpath: string | undefined): ApplicationReach {
  if (xpath === undefined || xpath.includes('|')) return ALL;
  return applicationsReached(`${xpath}//*`);
}

/**
 * What an XPath evaluated from the desktop selects when its whole answer is known from the desktop's children alone:
 * the desktop itself (`/`), or the applications of one name (`app:Application[@Name='X']`, also after `/`; after
 * `//` (`anywhere`) only where applications are children of the desktop alone, Runtime.applicationsOnlyAtTop).
 * Undefined for any other XPath. A command whose root query is one of these answers it without the XPath engine.
 */
export type TopLevelSelection = { kind: 'desktop' } | { kind: 'applications'; name: string; anywhere: boolean };

export function topLevelSelection(xpath: string): TopLevelSelection | undefined {
  const ast = parsed(xpath);
  if (ast?.k !== 'path' || (ast.start !== 'root' && ast.start !== 'context')) return undefined;
  if (ast.steps.length === 0) return ast.start === 'root' ? { kind: 'desktop' } : undefined;
  const scoped = scopedApplication(ast.steps);
  if (!scoped || scoped.rest.length > 0) return undefined;
  return { kind: 'applications', name: scoped.name, anywhere: ast.steps.length > 1 };
}
