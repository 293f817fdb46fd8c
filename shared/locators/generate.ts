import { qualifiedRole } from '../model/namespaces.js';
import { isBlacklisted, isVolatileValue, resolveConfig, type LocatorConfig } from './config.js';
import { xpathString } from './quote.js';
import { isApplication, type LocatorNode, type LocatorTree } from './tree.js';

export type LocatorStrategy = 'id' | 'role-name' | 'role-attributes' | 'role' | 'content' | 'scoped' | 'position';

export interface Locator {
  xpath: string;
  strategy: LocatorStrategy;
  reason: string;
  /** Robustness, 1..100: how likely the locator survives changes of the application (higher is better). */
  score: number;
  /** Nodes it selects: 1 for every locator returned. */
  matches: number;
}

/** One step of a candidate path, built from a concrete node (the target or one of its ancestors). */
interface Step {
  readonly node: LocatorNode;
  /** How this step relates to the one before it; the first step is always `//` from the desktop. */
  readonly axis: '/' | '//';
  /** Role name test instead of `*`. */
  readonly role: boolean;
  /** Attribute keys, in priority order; values are the node's. */
  readonly preds: readonly string[];
  /** Positional predicate (its number is computed from the node). */
  readonly position: boolean;
  /** A child that identifies an unnamed container: `Pane[Tree[@Name='Files']]`. */
  readonly has?: { readonly child: LocatorNode; readonly key: string };
}

type Path = readonly Step[];

interface Candidate {
  path: Path;
  xpath: string;
}

/**
 * A precomputed index over a cached tree: nodes by role and by attribute value, the usable attributes of each node.
 * Counting how many nodes a candidate selects is done here (cheap); every locator handed out is then verified with
 * the real XPath engine (see verify.ts).
 */
export class LocatorIndex {
  readonly config: LocatorConfig;
  private readonly byRole = new Map<string, LocatorNode[]>();
  private readonly byAttribute = new Map<string, LocatorNode[]>();
  private readonly usableCache = new Map<LocatorNode, readonly string[]>();
  private readonly priorityRank: Map<string, number>;

  constructor(
    readonly tree: LocatorTree,
    config: Partial<LocatorConfig> = {},
  ) {
    this.config = resolveConfig(config);
    this.priorityRank = new Map(this.config.priority.map((key, index) => [key, index]));
    for (const node of tree.nodes) {
      push(this.byRole, roleKey(node), node);
      for (const [key, value] of node.attributes) push(this.byAttribute, `${key}\u0000${value}`, node);
    }
  }

  /** Attribute keys a locator may use for this node, best first: the priority list, then the others by name. */
  usable(node: LocatorNode): readonly string[] {
    let keys = this.usableCache.get(node);
    if (!keys) {
      const found: string[] = [];
      for (const [key, value] of node.attributes) {
        if (isBlacklisted(key, this.config) || isVolatileValue(value)) continue;
        if (!this.priorityRank.has(key) && !this.config.useOtherAttributes) continue;
        found.push(key);
      }
      found.sort((a, b) => this.rank(a) - this.rank(b) || (a < b ? -1 : a > b ? 1 : 0));
      keys = found;
      this.usableCache.set(node, keys);
    }
    return keys;
  }

  rank(key: string): number {
    return this.priorityRank.get(key) ?? this.config.priority.length;
  }

  candidatesFor(step: Step): readonly LocatorNode[] {
    let best: readonly LocatorNode[] = this.tree.nodes;
    if (step.role) best = this.byRole.get(roleKey(step.node)) ?? [];
    for (const key of step.preds) {
      const list = this.byAttribute.get(`${key}\u0000${step.node.attributes.get(key) ?? ''}`) ?? [];
      if (list.length < best.length) best = list;
    }
    return best;
  }
}

class MinHeap<T> {
  private readonly items: T[] = [];
  constructor(private readonly less: (a: T, b: T) => number) {}
  get size(): number {
    return this.items.length;
  }
  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.less(items[i]!, items[parent]!) >= 0) break;
      [items[i], items[parent]] = [items[parent]!, items[i]!];
      i = parent;
    }
  }
  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && this.less(items[l]!, items[m]!) < 0) m = l;
        if (r < items.length && this.less(items[r]!, items[m]!) < 0) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m]!, items[i]!];
        i = m;
      }
    }
    return top;
  }
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function roleKey(node: LocatorNode): string {
  return `${node.namespace}:${node.role}`;
}

function matchesTest(node: LocatorNode, step: Step): boolean {
  if (step.role && (node.role !== step.node.role || node.namespace !== step.node.namespace)) return false;
  for (const key of step.preds) if (node.attributes.get(key) !== step.node.attributes.get(key)) return false;
  if (step.has) {
    const { child, key } = step.has;
    const value = child.attributes.get(key);
    if (
      !node.children.some(
        (c) => c.role === child.role && c.namespace === child.namespace && c.attributes.get(key) === value,
      )
    )
      return false;
  }
  return true;
}

/** 1-based position of the node among its parent's children that pass the step's test (XPath `[n]` on a step). */
function positionOf(node: LocatorNode, step: Step): number {
  const siblings = node.parent?.children ?? [];
  let position = 0;
  for (const sibling of siblings) {
    if (matchesTest(sibling, step)) position++;
    if (sibling === node) return position;
  }
  return position;
}

const targetPositions = new WeakMap<Step, number>();

function matchesStep(node: LocatorNode, step: Step): boolean {
  if (!matchesTest(node, step)) return false;
  if (!step.position) return true;
  let position = targetPositions.get(step);
  if (position === undefined) {
    position = positionOf(step.node, step);
    targetPositions.set(step, position);
  }
  return positionOf(node, step) === position;
}

/** Positions on applications and top-level windows depend on the view; locators never use them. */
function positionAllowed(node: LocatorNode, tree: LocatorTree): boolean {
  return !isApplication(node) && node.parent !== tree.root && !(node.parent && isApplication(node.parent));
}

function matchesPath(node: LocatorNode, path: Path, index: number, root: LocatorNode): boolean {
  const step = path[index]!;
  if (node === root || !matchesStep(node, step)) return false;
  if (index === 0) return true;
  if (step.axis === '/') {
    const parent = node.parent;
    return parent !== null && parent !== root && matchesPath(parent, path, index - 1, root);
  }
  for (let ancestor = node.parent; ancestor && ancestor !== root; ancestor = ancestor.parent) {
    if (matchesPath(ancestor, path, index - 1, root)) return true;
  }
  return false;
}

export function renderStep(step: Step): string {
  const test = step.role ? qualifiedRole(step.node.namespace, step.node.role) : '*';
  const preds = step.preds.map((key) => `@${key}=${xpathString(step.node.attributes.get(key) ?? '')}`);
  const attributePart = preds.length > 0 ? `[${preds.join(' and ')}]` : '';
  const positionPart = step.position ? `[${positionOf(step.node, step)}]` : '';
  const hasPart = step.has
    ? `[${qualifiedRole(step.has.child.namespace, step.has.child.role)}[@${step.has.key}=${xpathString(
        step.has.child.attributes.get(step.has.key) ?? '',
      )}]]`
    : '';
  return `${test}${attributePart}${hasPart}${positionPart}`;
}

function renderPath(path: Path): string {
  return path.map((step, index) => `${index === 0 ? '//' : step.axis}${renderStep(step)}`).join('');
}

function describeNode(node: LocatorNode): string {
  const role = qualifiedRole(node.namespace, node.role);
  return node.name ? `${role} "${node.name}"` : role;
}

function classify(path: Path): LocatorStrategy {
  if (path.some((step) => step.position)) return 'position';
  if (path.length > 1) return 'scoped';
  const target = path[0]!;
  if (target.has) return 'content';
  if (target.preds.includes('Id')) return 'id';
  if (target.preds.length === 1 && target.preds[0] === 'Name') return 'role-name';
  if (target.preds.length > 0) return 'role-attributes';
  return 'role';
}

function reasonFor(path: Path, strategy: LocatorStrategy): string {
  const target = path[path.length - 1]!;
  const role = qualifiedRole(target.node.namespace, target.node.role);
  const attrs = target.preds.map((key) => `@${key}`).join(', ');
  switch (strategy) {
    case 'id':
      return `developer Id "${target.node.attributes.get('Id') ?? ''}" is unique on the desktop`;
    case 'role-name':
      return `the only ${role} named "${target.node.name}"`;
    case 'role-attributes':
      return `the only ${role} with these values of ${attrs}`;
    case 'role':
      return `the only ${role} on the desktop`;
    case 'content':
      return `the only ${role} holding ${describeNode(target.has!.child)}`;
    case 'scoped':
      return `unique within ${describeNode(path[0]!.node)}${attrs ? ` by ${attrs}` : ''}`;
    case 'position': {
      const positioned = path.find((step) => step.position)!;
      return `position ${positionOf(positioned.node, positioned)} among siblings under ${describeNode(
        positioned.node.parent ?? positioned.node,
      )} (last resort: breaks when siblings are added)`;
    }
  }
}

function scoreOf(path: Path, tree: LocatorTree): number {
  let score = 100;
  const target = path[path.length - 1]!;
  if (!target.role) score -= 4;
  if (target.preds.includes('Id')) score -= 0;
  else if (target.preds.includes('Name')) score -= 10;
  else if (target.preds.length > 0) score -= 18;
  else if (target.has) score -= target.has.key === 'Id' ? 20 : 24;
  else score -= 30;
  score -= Math.max(0, target.preds.length - 1) * 4;
  if (target.position) score -= 30;
  for (const step of path.slice(0, -1)) {
    score -= 5;
    const topWindow = step.node.parent === tree.root || (step.node.parent !== null && isApplication(step.node.parent));
    if (step.preds.includes('Id')) score -= 0;
    else if (step.preds.includes('Name'))
      score -= topWindow && !isApplication(step.node) ? 8 : isApplication(step.node) ? 0 : 4;
    else if (step.preds.length > 0) score -= 6;
    else if (step.has) score -= 8;
    else score -= 10;
    if (step.position) score -= 25;
  }
  for (const step of path.slice(1)) if (step.axis === '/') score -= 4;
  return Math.max(1, Math.min(100, score));
}

/** Ancestors worth scoping under: identifiable by Id or a stable name, windows, applications. */
function isAnchor(node: LocatorNode, index: LocatorIndex): boolean {
  if (isApplication(node) || node.role === 'Window') return true;
  const usable = index.usable(node);
  return usable.includes('Id') || usable.includes('Name');
}

/**
 * ROBULA+-style refinement (Leotta et al.): start from `//*` and specialise the top step — role, attributes by
 * priority, a position — or add an ancestor level (the parent with `/`, or the nearest anchors with `//`); keep the
 * first candidates that select only the target. Returns unverified candidates, best first.
 */
export function locatorCandidates(index: LocatorIndex, target: LocatorNode): Candidate[] {
  const { tree, config } = index;
  const root = tree.root;
  const want = config.maxResults * 2;
  const seen = new Set<string>();
  const unique: Candidate[] = [];
  interface Queued {
    path: Path;
    matches: readonly LocatorNode[];
    seq: number;
  }
  // Best first: the candidate selecting the fewest nodes is refined next (plain ROBULA+ is breadth first), so large
  // trees do not spend the budget on refinements of `//Button` that select thousands of nodes.
  const queue = new MinHeap<Queued>(
    (a, b) => a.matches.length - b.matches.length || a.path.length - b.path.length || a.seq - b.seq,
  );
  let seq = 0;
  let counted = 0;

  const matchAll = (path: Path, superset: readonly LocatorNode[] | undefined): LocatorNode[] => {
    counted++;
    const last = path.length - 1;
    const pool = superset ?? index.candidatesFor(path[last]!);
    const out: LocatorNode[] = [];
    for (const node of pool) if (matchesPath(node, path, last, root)) out.push(node);
    return out;
  };

  const consider = (raw: Path, superset: readonly LocatorNode[] | undefined): void => {
    // A `*` step with predicates reads better, and is no less unique, with its role (positions stay as built).
    const path = raw.map((step) =>
      !step.role && !step.position && step.preds.length > 0 ? { ...step, role: true } : step,
    );
    const xpath = renderPath(path);
    if (seen.has(xpath)) return;
    seen.add(xpath);
    const matches = matchAll(path, superset);
    if (matches.length === 1 && matches[0] === target) {
      // Over-specified: the same path without its positions is unique already (and found on its own).
      if (path.some((step) => step.position)) {
        const plain = path.map((step) => ({ ...step, position: false }));
        if (matchAll(plain, undefined).length === 1) return;
      }
      unique.push({ path, xpath });
    } else if (matches.includes(target)) queue.push({ path, matches, seq: seq++ });
  };

  // ROBULA+ starts from `//*`; its first specialisation (the role) is applied up front, since `*` steps with
  // predicates are rendered with their role anyway and `//*` alone only ever selects the whole tree.
  const start: Step = { node: target, axis: '//', role: true, preds: [], position: false };
  // Direct strategies first (Id, role and name, role and attributes), so they are never crowded out.
  const usable = index.usable(target);
  for (const key of usable.slice(0, 4)) consider([{ ...start, role: true, preds: [key] }], undefined);
  consider([start], undefined);
  // Scoped under the nearest identifiable ancestors (window, application, named container), with `//` so that the
  // locator survives layout changes between them.
  const targetSteps: Step[] = [start, ...usable.slice(0, 2).map((key) => ({ ...start, preds: [key] }))];
  let anchors = 0;
  for (let ancestor = target.parent; ancestor && ancestor !== root && anchors < 3; ancestor = ancestor.parent) {
    if (!isAnchor(ancestor, index)) continue;
    anchors++;
    const keys = index.usable(ancestor);
    const anchorKey = keys.includes('Id') ? 'Id' : keys.includes('Name') ? 'Name' : keys[0];
    const anchorStep: Step = {
      node: ancestor,
      axis: '//',
      role: true,
      preds: anchorKey ? [anchorKey] : [],
      position: false,
    };
    for (const step of targetSteps) consider([anchorStep, { ...step, axis: '//' }], undefined);
  }

  while (queue.size > 0 && unique.length < want && counted < config.budget) {
    const { path, matches } = queue.pop()!;
    const top = path[0]!;
    const rest = path.slice(1);
    const replaceTop = (step: Step, superset: readonly LocatorNode[] | undefined) =>
      consider([step, ...rest], superset);
    // A changed top step of a one-step path changes the last step: recount from the index.
    const superset = path.length > 1 ? matches : undefined;
    // A position is the last specialisation of a step (ROBULA+): after it, only levels are added.
    if (!top.role && !top.position) replaceTop({ ...top, role: true }, superset);
    const keys = index.usable(top.node);
    const lastRank = top.preds.length > 0 ? keys.indexOf(top.preds[top.preds.length - 1]!) : -1;
    if (top.preds.length < config.maxPredicates && !top.position) {
      for (let k = lastRank + 1; k < keys.length; k++) {
        replaceTop({ ...top, preds: [...top.preds, keys[k]!] }, superset);
      }
    }
    if (!top.position && !top.has && top.preds.length === 0) {
      // Unnamed containers are known by what they hold: a child with an Id or a stable name.
      let tried = 0;
      for (const child of top.node.children) {
        if (tried >= 4) break;
        const childKeys = index.usable(child);
        const key = childKeys.includes('Id') ? 'Id' : childKeys.includes('Name') ? 'Name' : undefined;
        if (!key) continue;
        tried++;
        replaceTop({ ...top, role: true, has: { child, key } }, superset);
      }
    }
    if (!top.position && positionAllowed(top.node, tree)) replaceTop({ ...top, position: true }, superset);
    if (path.length < config.maxSteps) {
      const parent = top.node.parent;
      if (parent && parent !== root) {
        const step: Step = { node: parent, axis: '//', role: isApplication(parent), preds: [], position: false };
        consider([step, { ...top, axis: '/' }, ...rest], matches);
        let anchors = 0;
        for (
          let ancestor: LocatorNode | null = parent;
          ancestor && ancestor !== root && anchors < 3;
          ancestor = ancestor.parent
        ) {
          if (!isAnchor(ancestor, index)) continue;
          anchors++;
          const jump: Step = { node: ancestor, axis: '//', role: true, preds: [], position: false };
          consider([jump, { ...top, axis: '//' }, ...rest], matches);
        }
      }
    }
  }
  return rankCandidates(unique, tree);
}

function rankCandidates(candidates: readonly Candidate[], tree: LocatorTree): Candidate[] {
  const scored = candidates.map((candidate) => ({ candidate, score: scoreOf(candidate.path, tree) }));
  scored.sort((a, b) => b.score - a.score || a.candidate.xpath.length - b.candidate.xpath.length);
  return scored.map((entry) => entry.candidate);
}

export function describeCandidate(candidate: Candidate, tree: LocatorTree): Locator {
  const strategy = classify(candidate.path);
  return {
    xpath: candidate.xpath,
    strategy,
    reason: reasonFor(candidate.path, strategy),
    score: scoreOf(candidate.path, tree),
    matches: 1,
  };
}

/** Candidates described, best first, not yet verified by an XPath engine. */
export function proposeLocators(index: LocatorIndex, target: LocatorNode): Locator[] {
  const found = locatorCandidates(index, target).map((candidate) => describeCandidate(candidate, index.tree));
  if (found.length > 0) return found;
  // Nothing stable tells the node apart within the budget: the absolute position is the last resort, and says so.
  return [
    {
      xpath: absolutePath(index.tree, target),
      strategy: 'position',
      reason: 'no stable attribute or ancestor tells it apart: absolute position (breaks when the layout changes)',
      score: 1,
      matches: 1,
    },
  ];
}

/** The absolute positional path (`/app:Application[1]/Window[2]/Pane[1]/Button[3]`), the baseline recorders emit. */
export function absolutePath(tree: LocatorTree, target: LocatorNode): string {
  const chain: LocatorNode[] = [];
  for (let node: LocatorNode | null = target; node && node !== tree.root; node = node.parent) chain.unshift(node);
  const parts = chain.map((node) => {
    const siblings = node.parent?.children ?? [];
    const same = siblings.filter((s) => s.role === node.role && s.namespace === node.namespace);
    return `${qualifiedRole(node.namespace, node.role)}[${same.indexOf(node) + 1}]`;
  });
  return `/${parts.join('/')}`;
}
