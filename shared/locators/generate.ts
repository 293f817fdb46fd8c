import { qualifiedRole } from '../model/namespaces.js';
import { isBlacklisted, isVolatileValue, resolveConfig, type LocatorConfig } from './config.js';
import { xpathString } from './quote.js';
import { isApplication, isTopLevel, type LocatorNode, type LocatorTree } from './tree.js';

export type LocatorStrategy =
  'id' | 'title' | 'role-name' | 'role-attributes' | 'role' | 'content' | 'scoped' | 'position';

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
  /**
   * A child that identifies an unnamed container, `Pane[Tree[@Name='Files']]`; with `via`, a grandchild under any
   * child step (`Pane[` star `/Edit[@Id='search']]`).
   */
  readonly has?: { readonly child: LocatorNode; readonly key: string; readonly via?: boolean };
  /** The stable part of a window title: `Window[contains(@Name,'Settings')]` (see titleParts). */
  readonly title?: string;
}

type Path = readonly Step[];

/**
 * A step with every property, in one order (`has` and `title` undefined where absent): all steps share one object
 * shape, so the search's code stays monomorphic instead of being deoptimised by each new mix of properties.
 */
function newStep(
  node: LocatorNode,
  axis: Step['axis'],
  role: boolean,
  preds: readonly string[],
  position: boolean,
  has?: Step['has'],
  title?: string,
): Step {
  return { node, axis, role, preds, position, has, title };
}

/** The step with some of its properties changed (its node never is). */
function stepWith(step: Step, change: Partial<Omit<Step, 'node'>>): Step {
  return newStep(
    step.node,
    change.axis ?? step.axis,
    change.role ?? step.role,
    change.preds ?? step.preds,
    change.position ?? step.position,
    'has' in change ? change.has : step.has,
    'title' in change ? change.title : step.title,
  );
}

interface Candidate {
  path: Path;
  xpath: string;
}

interface Holdings {
  readonly children: readonly { readonly child: LocatorNode; readonly key: string }[];
  readonly via: boolean;
}

/**
 * A precomputed index over a cached tree: nodes by role and by attribute value, the usable attributes of each node.
 * Counting how many nodes a candidate selects is done here (cheap); every locator handed out is then verified with
 * the real XPath engine (see verify.ts).
 */
export class LocatorIndex {
  readonly config: LocatorConfig;
  private readonly byRole = new Map<string, LocatorNode[]>();
  /** Per attribute key (indexed on first use: a search asks about a few keys), the nodes by value. */
  private readonly byAttribute = new Map<string, Map<string, LocatorNode[]>>();
  private readonly blacklisted = new Map<string, boolean>();
  private readonly usableCache = new Map<LocatorNode, readonly string[]>();
  private readonly selectedByXPath = new Map<string, readonly LocatorNode[]>();
  private readonly aloneByStep = new Map<string, boolean>();
  private readonly anchors = new Map<LocatorNode, boolean>();
  private readonly titles = new Map<LocatorNode, readonly string[]>();
  private readonly held = new Map<LocatorNode, Holdings>();
  private readonly priorityRank: Map<string, number>;
  private pathMatcher: PathMatcher | undefined;

  constructor(
    readonly tree: LocatorTree,
    config: Partial<LocatorConfig> = {},
  ) {
    this.config = resolveConfig(config);
    this.priorityRank = new Map(this.config.priority.map((key, index) => [key, index]));
    for (const node of tree.nodes) push(this.byRole, roleKey(node), node);
  }

  /** Attribute keys a locator may use for this node, best first: the priority list, then the others by name. */
  usable(node: LocatorNode): readonly string[] {
    let keys = this.usableCache.get(node);
    if (!keys) {
      const found: string[] = [];
      for (const [key, value] of node.attributes) {
        let blacklisted = this.blacklisted.get(key);
        if (blacklisted === undefined) this.blacklisted.set(key, (blacklisted = isBlacklisted(key, this.config)));
        if (blacklisted || isVolatileValue(value)) continue;
        if (!this.priorityRank.has(key) && !this.config.useOtherAttributes) continue;
        found.push(key);
      }
      found.sort((a, b) => this.rank(a) - this.rank(b) || (a < b ? -1 : a > b ? 1 : 0));
      keys = found;
      this.usableCache.set(node, keys);
    }
    return keys;
  }

  /** Whether a node is worth scoping under (isAnchor), kept per node. */
  anchor(node: LocatorNode): boolean {
    let answer = this.anchors.get(node);
    if (answer === undefined) this.anchors.set(node, (answer = isAnchor(node, this)));
    return answer;
  }

  /** A top-level window's title parts (titleParts), kept per node. */
  titlePartsOf(node: LocatorNode): readonly string[] {
    let parts = this.titles.get(node);
    if (!parts) {
      parts = titleParts(node.attributes.get('Name') ?? '', ownerApplication(node)?.name);
      this.titles.set(node, parts);
    }
    return parts;
  }

  /**
   * What an unnamed container holds that tells it apart, kept per node: its children with an Id or a stable name
   * (Ids first), else such grandchildren (`via`).
   */
  holdings(node: LocatorNode): Holdings {
    let found = this.held.get(node);
    if (!found) {
      const pick = (nodes: readonly LocatorNode[]) => {
        const out: { child: LocatorNode; key: string }[] = [];
        for (const child of nodes) {
          const keys = this.usable(child);
          if (keys.includes('Id')) out.push({ child, key: 'Id' });
          else if (keys.includes('Name')) out.push({ child, key: 'Name' });
        }
        return out.sort((a, b) => (a.key === b.key ? 0 : a.key === 'Id' ? -1 : 1));
      };
      const direct = pick(node.children);
      found =
        direct.length > 0
          ? { children: direct, via: false }
          : { children: pick(node.children.flatMap((child) => child.children)), via: true };
      this.held.set(node, found);
    }
    return found;
  }

  rank(key: string): number {
    return this.priorityRank.get(key) ?? this.config.priority.length;
  }

  /**
   * The nodes a candidate selects, counted once per tree: the candidates of many targets repeat (siblings share
   * their ancestors' steps). A candidate's nodes depend on its XPath alone, whatever pool they were counted from.
   */
  selected(xpath: string, count: () => readonly LocatorNode[]): readonly LocatorNode[] {
    let nodes = this.selectedByXPath.get(xpath);
    if (!nodes) this.selectedByXPath.set(xpath, (nodes = count()));
    return nodes;
  }

  /**
   * The nodes a path selects, in document order; `superset`, when given, holds every one of them (the nodes of a
   * path it specialises) and is searched instead of the nodes of the last step's role or values.
   */
  select(path: Path, superset: readonly LocatorNode[] | undefined): LocatorNode[] {
    this.pathMatcher ??= new PathMatcher(this.tree.nodes);
    const pool = superset ?? this.candidatesFor(path[path.length - 1]!);
    return this.pathMatcher.select(path, pool, this.candidatesFor(path[0]!), superset !== undefined);
  }

  /**
   * Whether a step, as a path's first step, selects its own node alone on the desktop. Then every refinement of a
   * path starting with it (the step specialised, or levels added above it) selects what the path selects: each
   * match is reached through that node, which every refinement still matches (their steps are built from the node
   * and its ancestors).
   */
  selectsItsNodeAlone(step: Step, text = stepText(step)): boolean {
    let alone = this.aloneByStep.get(text);
    if (alone === undefined) {
      let found = 0;
      for (const node of this.candidatesFor(step)) if (matchesStep(node, step) && ++found > 1) break;
      alone = found === 1;
      this.aloneByStep.set(text, alone);
    }
    return alone;
  }

  private nodesWith(key: string): ReadonlyMap<string, LocatorNode[]> {
    let byValue = this.byAttribute.get(key);
    if (!byValue) {
      byValue = new Map();
      for (const node of this.tree.nodes) {
        const value = node.attributes.get(key);
        if (value !== undefined) push(byValue, value, node);
      }
      this.byAttribute.set(key, byValue);
    }
    return byValue;
  }

  candidatesFor(step: Step): readonly LocatorNode[] {
    let best: readonly LocatorNode[] = this.tree.nodes;
    if (step.role) best = this.byRole.get(roleKey(step.node)) ?? [];
    for (const key of step.preds) {
      const list = this.nodesWith(key).get(step.node.attributes.get(key) ?? '') ?? [];
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
      const swapped = items[i]!;
      items[i] = items[parent]!;
      items[parent] = swapped;
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
        const swapped = items[i]!;
        items[i] = items[m]!;
        items[m] = swapped;
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
  if (step.title !== undefined && !(node.attributes.get('Name') ?? '').includes(step.title)) return false;
  if (step.has) {
    const { child, key, via } = step.has;
    const value = child.attributes.get(key);
    const holds = (c: LocatorNode) =>
      c.role === child.role && c.namespace === child.namespace && c.attributes.get(key) === value;
    if (!(via ? node.children.some((c) => c.children.some(holds)) : node.children.some(holds))) return false;
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
/** Per positional step, per parent: the child at the step's position (found once, not once per child). */
const childrenAtPosition = new WeakMap<Step, Map<LocatorNode, LocatorNode | null>>();

/** positionOf the step's own node, found once per step (rendering and matching ask for it). */
function stepPosition(step: Step): number {
  let position = targetPositions.get(step);
  if (position === undefined) {
    position = positionOf(step.node, step);
    targetPositions.set(step, position);
  }
  return position;
}

function matchesStep(node: LocatorNode, step: Step): boolean {
  if (!matchesTest(node, step)) return false;
  if (!step.position) return true;
  const position = stepPosition(step);
  const parent = node.parent;
  if (!parent) return position === 0;
  let byParent = childrenAtPosition.get(step);
  if (!byParent) childrenAtPosition.set(step, (byParent = new Map()));
  let chosen = byParent.get(parent);
  if (chosen === undefined) {
    chosen = null;
    let passed = 0;
    for (const child of parent.children) {
      if (matchesTest(child, step) && ++passed === position) {
        chosen = child;
        break;
      }
    }
    byParent.set(parent, chosen);
  }
  return chosen === node;
}

/** Positions on applications and top-level windows depend on the view; locators never use them. */
function positionAllowed(node: LocatorNode, tree: LocatorTree): boolean {
  return !isApplication(node) && node.parent !== tree.root && !(node.parent && isApplication(node.parent));
}

/**
 * The position after each node's subtree in a list of nodes that is the tree in document order (a node, then each
 * child's subtree in turn); undefined when the list is not that.
 */
function subtreeEnds(
  nodes: readonly LocatorNode[],
  ordinals: ReadonlyMap<LocatorNode, number>,
): Int32Array | undefined {
  const ends = new Int32Array(nodes.length);
  for (let i = nodes.length - 1; i >= 0; i--) {
    let end = i + 1;
    for (const child of nodes[i]!.children) {
      if (ordinals.get(child) !== end || child.parent !== nodes[i]) return undefined;
      end = ends[end]!;
    }
    ends[i] = end;
  }
  return ends;
}

/**
 * Which nodes of a pool a path selects. Down from the nodes of its first step (their children or subtrees, step by
 * step) where that visits fewer nodes than the pool holds: `//Cell[@Name='x']//CheckBox` looks below one cell
 * instead of at every check box. Else each node of the pool is walked up from: whether a node matches the steps 0..i
 * (its step i being its own), and whether it or one of its ancestors below the root does, is remembered per run for
 * the ancestors (the nodes of one pool share most of them). Both in arrays by the node's position in the tree's list
 * (document order: a subtree is the range up to its end).
 */
class PathMatcher {
  private readonly ordinals = new Map<LocatorNode, number>();
  /** Each node's parent by position; -1 for the root (or none). */
  private readonly parents: Int32Array;
  /** The position after each node's subtree; undefined when the list is not the tree in document order. */
  private readonly ends: Int32Array | undefined;
  /** Per step index and kind (0: matches, 1: it or an ancestor matches) and node: the run that answered, and how. */
  private stamps = new Int32Array(0);
  private answers = new Uint8Array(0);
  private run = 0;
  private path: Path = [];
  private readonly poolSets = new WeakMap<readonly LocatorNode[], ReadonlySet<LocatorNode>>();

  constructor(private readonly nodes: readonly LocatorNode[]) {
    nodes.forEach((node, i) => this.ordinals.set(node, i));
    this.parents = Int32Array.from(nodes, (node) => (node.parent ? (this.ordinals.get(node.parent) ?? -1) : -1));
    this.ends = subtreeEnds(nodes, this.ordinals);
  }

  select(
    path: Path,
    pool: readonly LocatorNode[],
    first: readonly LocatorNode[],
    poolIsSuperset: boolean,
  ): LocatorNode[] {
    // A visit down costs a step test; one up from a pool node a lookup and a step test, and often its parent's.
    const down = this.downFrom(path, first, 2 * pool.length);
    if (down) {
      if (!poolIsSuperset) return down;
      const inPool = down.length > 4 ? this.setOf(pool) : undefined;
      return down.filter((node) => (inPool ? inPool.has(node) : pool.includes(node)));
    }
    return this.upFrom(path, pool);
  }

  /** A pool as a set, made once per pool (the refinements of one candidate share its nodes as their pool). */
  private setOf(pool: readonly LocatorNode[]): ReadonlySet<LocatorNode> {
    let set = this.poolSets.get(pool);
    if (!set) this.poolSets.set(pool, (set = new Set(pool)));
    return set;
  }

  /** The nodes the path selects, by its steps downwards; undefined when that would visit more than `limit` nodes. */
  private downFrom(path: Path, first: readonly LocatorNode[], limit: number): LocatorNode[] | undefined {
    const ends = this.ends;
    if (!ends || first.length > limit) return undefined;
    let visits = first.length;
    let current: number[] = [];
    for (const node of first) if (matchesStep(node, path[0]!)) current.push(this.ordinals.get(node)!);
    for (let index = 1; index < path.length && current.length > 0; index++) {
      const step = path[index]!;
      const next: number[] = [];
      if (step.axis === '/') {
        for (const parent of current) {
          const children = this.nodes[parent]!.children;
          visits += children.length;
          if (visits > limit) return undefined;
          for (const child of children) if (matchesStep(child, step)) next.push(this.ordinals.get(child)!);
        }
        // Children of several parents: a later parent may lie inside an earlier one's subtree.
        next.sort((a, b) => a - b);
      } else {
        // Ascending starts: a subtree inside one already walked is skipped, so each node is visited once, in order.
        let walked = 0;
        for (const ancestor of current) {
          const from = Math.max(ancestor + 1, walked);
          const to = ends[ancestor]!;
          if (to <= from) continue;
          visits += to - from;
          if (visits > limit) return undefined;
          for (let ordinal = from; ordinal < to; ordinal++)
            if (matchesStep(this.nodes[ordinal]!, step)) next.push(ordinal);
          walked = to;
        }
      }
      current = next;
    }
    return current.map((ordinal) => this.nodes[ordinal]!);
  }

  private upFrom(path: Path, pool: readonly LocatorNode[]): LocatorNode[] {
    const slots = this.nodes.length * 2 * Math.max(0, path.length - 1);
    if (this.stamps.length < slots) {
      this.stamps = new Int32Array(slots);
      this.answers = new Uint8Array(slots);
      this.run = 0;
    }
    this.run++;
    this.path = path;
    const last = path.length - 1;
    const out: LocatorNode[] = [];
    for (const node of pool) {
      const ordinal = this.ordinals.get(node);
      if (ordinal !== undefined && this.matches(ordinal, last)) out.push(node);
    }
    return out;
  }

  private matches(ordinal: number, index: number): boolean {
    const step = this.path[index]!;
    if (!matchesStep(this.nodes[ordinal]!, step)) return false;
    if (index === 0) return true;
    const parent = this.parents[ordinal]!;
    return parent >= 0 && this.remembered(parent, index - 1, step.axis === '/' ? 0 : 1);
  }

  private remembered(ordinal: number, index: number, kind: 0 | 1): boolean {
    const slot = (index * 2 + kind) * this.nodes.length + ordinal;
    if (this.stamps[slot] === this.run) return this.answers[slot] === 1;
    let answer: boolean;
    if (kind === 0) answer = this.matches(ordinal, index);
    else {
      const parent = this.parents[ordinal]!;
      answer = this.remembered(ordinal, index, 0) || (parent >= 0 && this.remembered(parent, index, 1));
    }
    this.stamps[slot] = this.run;
    this.answers[slot] = answer ? 1 : 0;
    return answer;
  }
}

export function renderStep(step: Step): string {
  const test = step.role ? qualifiedRole(step.node.namespace, step.node.role) : '*';
  const preds = step.preds.map((key) => `@${key}=${xpathString(step.node.attributes.get(key) ?? '')}`);
  if (step.title !== undefined) preds.push(`contains(@Name,${xpathString(step.title)})`);
  const attributePart = preds.length > 0 ? `[${preds.join(' and ')}]` : '';
  const positionPart = step.position ? `[${stepPosition(step)}]` : '';
  const hasPart = step.has
    ? `[${step.has.via ? '*/' : ''}${qualifiedRole(step.has.child.namespace, step.has.child.role)}[@${
        step.has.key
      }=${xpathString(step.has.child.attributes.get(step.has.key) ?? '')}]]`
    : '';
  return `${test}${attributePart}${hasPart}${positionPart}`;
}

/** Each step's text, rendered once per step object: the paths of a search share their steps. */
const renderedSteps = new WeakMap<Step, string>();

function stepText(step: Step): string {
  let text = renderedSteps.get(step);
  if (text === undefined) renderedSteps.set(step, (text = renderStep(step)));
  return text;
}

/** A `*` step with predicates reads better, and is no less unique, with its role (positions stay as built). */
function withRole(step: Step): Step {
  return !step.role && !step.position && (step.preds.length > 0 || step.title !== undefined)
    ? stepWith(step, { role: true })
    : step;
}

function renderPath(path: Path): string {
  let out = '';
  for (let index = 0; index < path.length; index++) {
    const step = path[index]!;
    out += `${index === 0 ? '//' : step.axis}${stepText(step)}`;
  }
  return out;
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
  if (target.title !== undefined && target.preds.length === 0) return 'title';
  if (target.preds.length === 1 && target.preds[0] === 'Name') return 'role-name';
  if (target.preds.length > 0) return 'role-attributes';
  return 'role';
}

function describeStep(step: Step): string {
  if (step.title !== undefined) return `${qualifiedRole(step.node.namespace, step.node.role)} titled "…${step.title}…"`;
  const role = qualifiedRole(step.node.namespace, step.node.role);
  if (step.preds.length === 0 && step.has) return `${role} holding ${describeNode(step.has.child)}`;
  if (step.preds.length === 0) return role;
  return describeNode(step.node);
}

function reasonFor(path: Path, strategy: LocatorStrategy): string {
  const target = path[path.length - 1]!;
  const role = qualifiedRole(target.node.namespace, target.node.role);
  const attrs = [...target.preds.map((key) => `@${key}`), ...(target.title !== undefined ? ['the title'] : [])].join(
    ', ',
  );
  switch (strategy) {
    case 'id':
      return `developer Id "${target.node.attributes.get('Id') ?? ''}" is unique on the desktop`;
    case 'title':
      return `the only ${role} whose title contains "${target.title ?? ''}" (survives markers such as "*" or "(Not Responding)")`;
    case 'role-name':
      return `the only ${role} named "${target.node.name}"`;
    case 'role-attributes':
      return `the only ${role} with these values of ${attrs}`;
    case 'role':
      return `the only ${role} on the desktop`;
    case 'content':
      return `the only ${role} holding ${describeNode(target.has!.child)}`;
    case 'scoped': {
      if (path.length === 2 && isApplication(path[0]!.node) && target.axis === '/' && attrs === '' && !target.has)
        return `the only ${role} of ${describeNode(path[0]!.node)} (its title may change; breaks if it opens another ${role})`;
      const scope = path.slice(0, -1).map(describeStep).join(' › ');
      const what = attrs
        ? ` by ${attrs}`
        : path.length > 1 && path[path.length - 1]!.axis === '/'
          ? ' as its child'
          : '';
      return `unique within ${scope}${what}`;
    }
    case 'position': {
      const positioned = path.find((step) => step.position)!;
      return `position ${positionOf(positioned.node, positioned)} among siblings under ${describeNode(
        positioned.node.parent ?? positioned.node,
      )} (last resort: breaks when siblings are added)`;
    }
  }
}

/**
 * Robustness estimate of a path: 100 minus a penalty per step for what tends to change between recording a test and
 * running it. Developer Ids and application names are stable; exact window titles are not (documents, "*" markers,
 * "(Not Responding)"), the stable part of a title much less so; names of controls change with translations and
 * labels; positions change whenever siblings are added.
 */
function scoreOf(path: Path, tree: LocatorTree): number {
  let score = 100;
  const last = path.length - 1;
  path.forEach((step, index) => {
    const target = index === last;
    const topLevel = !isApplication(step.node) && isTopLevel(step.node, tree);
    // The only window of its role in an application, by the application alone: the title of a main window follows
    // its document or selection (gtk3-demo's is the selected demo), the application's name does not. It breaks
    // only when the application opens a second window of the same role (dialogs usually have their own).
    const appWindow =
      target &&
      topLevel &&
      index > 0 &&
      isApplication(path[index - 1]!.node) &&
      step.axis === '/' &&
      step.preds.length === 0 &&
      step.title === undefined &&
      !step.has &&
      !step.position;
    if (!target) score -= 5;
    if (target && !step.role) score -= 4;
    if (step.preds.includes('Id')) score -= 0;
    else if (isApplication(step.node) && step.preds.length > 0) score -= 0;
    else if (step.preds.includes('Name')) score -= topLevel ? (target ? 16 : 14) : target ? 10 : 4;
    else if (step.title !== undefined) score -= target ? 7 : 5;
    else if (step.preds.length > 0) score -= target ? 18 : 6;
    else if (step.has) score -= target ? 20 : 6;
    else if (appWindow) score -= 0;
    else score -= target ? 30 : 10;
    if (target) score -= Math.max(0, step.preds.length - 1) * 4;
    // Content on top of a name or title is one more thing that can change; a name or a grandchild more so.
    if (step.has) {
      if (step.preds.length > 0 || step.title !== undefined) score -= 6;
      score -= (step.has.key === 'Id' ? 0 : 4) + (step.has.via ? 6 : 0);
    }
    if (step.position) score -= target ? 30 : 25;
    if (index > 0 && step.axis === '/' && !appWindow) score -= 4;
  });
  return Math.max(1, Math.min(100, score));
}

/** Ancestors worth scoping under: identifiable by Id or a stable name, windows, applications. */
function isAnchor(node: LocatorNode, index: LocatorIndex): boolean {
  if (isApplication(node) || node.role === 'Window' || isTopLevel(node, index.tree)) return true;
  const usable = index.usable(node);
  return usable.includes('Id') || usable.includes('Name');
}

const TITLE_SEPARATOR = /\s+[-–—|·•:]\s+|\s*\|\s*/;
const TITLE_DECORATION = /^[\s*•●◆✱⋅·]+|[\s*•●◆✱⋅·]+$/g;

/**
 * The parts of a window title worth anchoring on, best first. Titles look like `Document 3 - Editor` or
 * `*notes.txt - gedit`: split at the separators, drop decorations ("*", "•") and parts that look like counters or
 * document numbers (digits, unless the part is the application's own name), and put the application's name last (it
 * tells applications apart, not the windows of one). `contains(@Name, part)` then survives modified markers and
 * status suffixes; a title that changes in its distinguishing part cannot be survived by any title predicate.
 */
export function titleParts(title: string, appName = ''): string[] {
  const out: string[] = [];
  const later: string[] = [];
  const app = appName.trim().toLowerCase();
  for (const raw of title.split(TITLE_SEPARATOR)) {
    const part = raw.replace(TITLE_DECORATION, '');
    if (part.length < 2 || isVolatileValue(part) || out.includes(part) || later.includes(part)) continue;
    const isApp = app !== '' && part.toLowerCase() === app;
    if (!isApp && /\d/.test(part)) continue;
    (isApp ? later : out).push(part);
  }
  return [...out, ...later];
}

function ownerApplication(node: LocatorNode): LocatorNode | undefined {
  for (let up = node.parent; up; up = up.parent) if (isApplication(up)) return up;
  return undefined;
}

/** Title steps for a top-level window (its role and `contains(@Name, part)`), best part first. */
function titleSteps(node: LocatorNode, index: LocatorIndex, axis: Step['axis']): Step[] {
  if (isApplication(node) || !isTopLevel(node, index.tree)) return [];
  const parts = index.titlePartsOf(node);
  return parts.slice(0, 3).map((part) => newStep(node, axis, true, [], false, undefined, part));
}

/**
 * The steps an anchor ancestor can be written as, best first: its Id, the stable part of its title (top-level
 * windows), its name or first usable attribute.
 */
function anchorSteps(node: LocatorNode, index: LocatorIndex): Step[] {
  const keys = index.usable(node);
  const base = newStep(node, '//', true, [], false);
  if (keys.includes('Id')) return [stepWith(base, { preds: ['Id'] })];
  const steps = titleSteps(node, index, '//');
  if (keys.includes('Name')) steps.push(stepWith(base, { preds: ['Name'] }));
  else if (keys[0] !== undefined) steps.push(stepWith(base, { preds: [keys[0]] }));
  if (steps.length === 0) steps.push(base);
  return steps;
}

/**
 * Content steps for an unnamed container: it holds a child with an Id or a stable name (children with Ids first),
 * else such a grandchild.
 */
function contentSteps(step: Step, index: LocatorIndex, limit: number): Step[] {
  const { children, via } = index.holdings(step.node);
  return children.slice(0, limit).map(({ child, key }) => stepWith(step, { role: true, has: { child, key, via } }));
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
    xpath: string;
    /** The XPath of the steps after the first (`/Panel[1]//Button`): the refinements of the path share it. */
    rest: string;
  }
  // Best first: the candidate selecting the fewest nodes is refined next (plain ROBULA+ is breadth first), so large
  // trees do not spend the budget on refinements of `//Button` that select thousands of nodes.
  const queue = new MinHeap<Queued>(
    (a, b) => a.matches.length - b.matches.length || a.path.length - b.path.length || a.seq - b.seq,
  );
  let seq = 0;
  let counted = 0;
  /** Where the refinement stops counting: the budget, or sooner once a unique candidate is found (budgetAfterFirst). */
  let stopAt = config.budget;

  const matchAll = (
    path: Path,
    xpath: string,
    superset: readonly LocatorNode[] | undefined,
    refined?: Step,
    refinedText?: string,
  ): readonly LocatorNode[] => {
    counted++;
    return index.selected(xpath, () =>
      superset && refined && index.selectsItsNodeAlone(refined, refinedText) ? superset : index.select(path, superset),
    );
  };

  /**
   * Counts a candidate: kept when unique, queued for refinement when it selects the target among others. With a
   * superset, `refined` is the first step of the path that selected it: the candidate specialises that step or adds
   * levels above it (see selectsItsNodeAlone). `rest` is the XPath of the path's steps after the first.
   */
  const count = (
    path: Path,
    xpath: string,
    rest: string,
    superset: readonly LocatorNode[] | undefined,
    refined?: Step,
    refinedText?: string,
  ): readonly LocatorNode[] | undefined => {
    if (seen.has(xpath)) return undefined;
    seen.add(xpath);
    const matches = matchAll(path, xpath, superset, refined, refinedText);
    if (matches.length === 1 && matches[0] === target) {
      // Over-specified: the same path without its positions is unique already (and found on its own).
      if (path.some((step) => step.position)) {
        const plain = path.map((step) => stepWith(step, { position: false }));
        if (matchAll(plain, renderPath(plain), undefined).length === 1) return matches;
      }
      unique.push({ path, xpath });
      if (unique.length === 1 && config.budgetAfterFirst !== undefined)
        stopAt = Math.min(config.budget, counted + config.budgetAfterFirst);
    } else if (matches.includes(target)) queue.push({ path, matches, seq: seq++, xpath, rest });
    return matches;
  };

  const consider = (
    raw: Path,
    superset: readonly LocatorNode[] | undefined,
    refined?: Step,
  ): readonly LocatorNode[] | undefined => {
    if (raw.length > config.maxSteps) return undefined;
    const path = raw.map(withRole);
    const xpath = renderPath(path);
    return count(path, xpath, xpath.slice(2 + stepText(path[0]!).length), superset, refined);
  };

  /**
   * consider([first, ...tail]) for a refinement of a queued path: the tail's steps are a considered path's (with
   * their roles), rendered as `tailText`; `refinedText` is the rendering of `refined`.
   */
  const considerAbove = (
    first: Step,
    tail: Path,
    tailText: string,
    superset: readonly LocatorNode[],
    refined: Step,
    refinedText: string,
  ): readonly LocatorNode[] | undefined => {
    if (tail.length >= config.maxSteps) return undefined;
    const step = withRole(first);
    return count([step, ...tail], `//${renderStep(step)}${tailText}`, tailText, superset, refined, refinedText);
  };
  /** Still selects the target among others: worth scoping further. */
  const ambiguous = (matches: readonly LocatorNode[] | undefined): matches is readonly LocatorNode[] =>
    matches !== undefined && matches.length > 1 && matches.includes(target);

  // ROBULA+ starts from `//*`; its first specialisation (the role) is applied up front, since `*` steps with
  // predicates are rendered with their role anyway and `//*` alone only ever selects the whole tree.
  const start = newStep(target, '//', true, [], false);
  // Direct strategies first (Id, role and name, role and attributes), so they are never crowded out.
  const usable = index.usable(target);
  for (const key of usable.slice(0, 4)) consider([stepWith(start, { role: true, preds: [key] })], undefined);
  const ownTitle = titleSteps(target, index, '//');
  for (const step of ownTitle) consider([step], undefined);
  consider([start], undefined);
  // Scoped under the nearest identifiable ancestors (window, application, named container), with `//` so that the
  // locator survives layout changes between them; a window is scoped by its application too, since its title alone
  // may tell it apart only until the title changes.
  const targetSteps: Step[] = [
    start,
    ...usable
      .filter((key) => key !== 'Name' || ownTitle.length === 0)
      .slice(0, 2)
      .map((key) => stepWith(start, { preds: [key] })),
    ...ownTitle.slice(0, 1),
    ...(usable.length === 0 ? contentSteps(start, index, 2) : []),
  ];
  const app = ownerApplication(target);
  const appSteps = app ? anchorSteps(app, index).slice(0, 1) : [];
  if (app && target.parent === app) {
    for (const appStep of appSteps) consider([appStep, stepWith(start, { axis: '/' })], undefined);
  }
  let anchors = 0;
  for (let ancestor = target.parent; ancestor && ancestor !== root && anchors < 3; ancestor = ancestor.parent) {
    if (!index.anchor(ancestor)) continue;
    anchors++;
    const window = isApplication(ancestor)
      ? undefined
      : [ancestor, ...ancestorsOf(ancestor, root)].find((node) => !isApplication(node) && isTopLevel(node, tree));
    const windowSteps = window && window !== ancestor ? anchorSteps(window, index).slice(0, 2) : [];
    for (const anchorStep of anchorSteps(ancestor, index).slice(0, 3)) {
      for (const step of targetSteps) {
        const tail = stepWith(step, { axis: '//' });
        // Scoped further (window, application) only while the scope does not tell the target apart yet.
        const scoped = consider([anchorStep, tail], undefined);
        if (!ambiguous(scoped) || isApplication(ancestor)) continue;
        for (const windowStep of windowSteps) {
          const inWindow = consider([windowStep, anchorStep, tail], scoped, anchorStep);
          if (ambiguous(inWindow))
            for (const appStep of appSteps) consider([appStep, windowStep, anchorStep, tail], inWindow, windowStep);
        }
        if (window === ancestor || windowSteps.length === 0)
          for (const appStep of appSteps) consider([appStep, anchorStep, tail], scoped, anchorStep);
      }
    }
  }

  while (queue.size > 0 && unique.length < want && counted < stopAt) {
    const { path, matches, xpath, rest: restText } = queue.pop()!;
    const top = path[0]!;
    const rest = path.slice(1);
    const topText = xpath.slice(2, xpath.length - restText.length);
    const replaceTop = (step: Step, superset: readonly LocatorNode[]) =>
      considerAbove(step, rest, restText, superset, top, topText);
    // Every change of the top step below specialises it (role, attributes, title, content, position), so the nodes
    // it selected are a superset of what the specialised path selects, also when the top step is the last one.
    const superset = matches;
    // A position is the last specialisation of a step (ROBULA+): after it, only levels are added.
    if (!top.role && !top.position) replaceTop(stepWith(top, { role: true }), superset);
    const keys = index.usable(top.node);
    const lastRank = top.preds.length > 0 ? keys.indexOf(top.preds[top.preds.length - 1]!) : -1;
    // A title part stands for the name; it is not refined further.
    if (top.preds.length < config.maxPredicates && !top.position && top.title === undefined) {
      for (let k = lastRank + 1; k < keys.length; k++) {
        replaceTop(stepWith(top, { preds: [...top.preds, keys[k]!] }), superset);
      }
    }
    if (!top.position && top.title === undefined && top.preds.length === 0)
      for (const step of titleSteps(top.node, index, top.axis)) replaceTop(stepWith(step, { has: top.has }), superset);
    if (!top.position && !top.has && top.preds.length === 0 && top.title === undefined) {
      // Unnamed containers are known by what they hold.
      for (const step of contentSteps(top, index, 4)) replaceTop(step, superset);
    }
    if (!top.position && positionAllowed(top.node, tree)) replaceTop(stepWith(top, { position: true }), superset);
    if (path.length < config.maxSteps) {
      const parent = top.node.parent;
      if (parent && parent !== root) {
        const step = newStep(parent, '//', isApplication(parent), [], false);
        considerAbove(step, [stepWith(top, { axis: '/' }), ...rest], `/${topText}${restText}`, matches, top, topText);
        let anchors = 0;
        for (
          let ancestor: LocatorNode | null = parent;
          ancestor && ancestor !== root && anchors < 3;
          ancestor = ancestor.parent
        ) {
          if (!index.anchor(ancestor)) continue;
          anchors++;
          const jump = newStep(ancestor, '//', true, [], false);
          considerAbove(
            jump,
            [stepWith(top, { axis: '//' }), ...rest],
            `//${topText}${restText}`,
            matches,
            top,
            topText,
          );
        }
      }
    }
  }
  return rankCandidates(unique, tree, config.maxResults);
}

function ancestorsOf(node: LocatorNode, root: LocatorNode): LocatorNode[] {
  const out: LocatorNode[] = [];
  for (let up = node.parent; up && up !== root; up = up.parent) out.push(up);
  return out;
}

/** What a locator relies on that may change: names, titles, content, positions, structure (Ids and apps are stable). */
function fragilities(path: Path): Set<string> {
  const out = new Set<string>();
  path.forEach((step, index) => {
    const key = step.node.key;
    if (step.title !== undefined) out.add(`title:${key}`);
    if (step.preds.includes('Name') && !isApplication(step.node)) out.add(`name:${key}`);
    if (step.preds.some((p) => p !== 'Id' && p !== 'Name') && !isApplication(step.node)) out.add(`attribute:${key}`);
    if (step.has) out.add(`content:${step.has.child.key}`);
    if (step.position) out.add(`position:${key}`);
    if (index > 0 && step.axis === '/') out.add(`structure:${key}`);
  });
  return out;
}

/**
 * Best first by score; the alternatives after the best are chosen to break in different ways (a locator sharing
 * fewer of the chosen ones' fragilities is preferred), so that when the first one breaks another one still works.
 * The chosen ones come first, sorted by score, then the rest.
 */
function rankCandidates(candidates: readonly Candidate[], tree: LocatorTree, count: number): Candidate[] {
  const scored = candidates.map((candidate) => ({
    candidate,
    score: scoreOf(candidate.path, tree),
    risks: fragilities(candidate.path),
  }));
  scored.sort((a, b) => b.score - a.score || a.candidate.xpath.length - b.candidate.xpath.length);
  const chosen: typeof scored = [];
  const taken = new Map<string, number>();
  const rest = [...scored];
  while (chosen.length < count && rest.length > 0) {
    let best = 0;
    let bestValue = -Infinity;
    rest.forEach((entry, i) => {
      let shared = 0;
      for (const risk of entry.risks) shared += taken.get(risk) ?? 0;
      const value = entry.score - 6 * shared;
      if (value > bestValue) [best, bestValue] = [i, value];
    });
    const [entry] = rest.splice(best, 1);
    chosen.push(entry!);
    for (const risk of entry!.risks) taken.set(risk, (taken.get(risk) ?? 0) + 1);
  }
  chosen.sort((a, b) => b.score - a.score || a.candidate.xpath.length - b.candidate.xpath.length);
  return [...chosen, ...rest].map((entry) => entry.candidate);
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

/** The XPaths of proposeLocators, in its order, without describing each candidate (a check wants the best alone). */
export function proposeXPaths(index: LocatorIndex, target: LocatorNode): string[] {
  const found = locatorCandidates(index, target);
  return found.length > 0 ? found.map((candidate) => candidate.xpath) : [absolutePath(index.tree, target)];
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
