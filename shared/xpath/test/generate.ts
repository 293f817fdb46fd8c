/** Seeded random trees and queries for the differential test of the fast path against fontoxpath. */
import { MemoryTree, type MemNode } from '../memory-tree.js';
import { seededRandom } from '../../random.js';

export type Rand = () => number;
const pick = <T>(r: Rand, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const chance = (r: Rand, p: number): boolean => r() < p;

const C = 'urn:platynui:control';
const ROLES: readonly [string, string][] = [
  [C, 'Pane'],
  [C, 'Button'],
  [C, 'Button'],
  [C, 'Text'],
  [C, 'List'],
  ['urn:platynui:item', 'ListItem'],
  ['urn:platynui:native', 'Widget'],
];
const NAMES = [
  'OK',
  'Cancel',
  'a',
  'ab',
  'ba',
  '1',
  '2',
  '10',
  '1.0',
  '',
  ' 2 ',
  'true',
  'false',
  '0',
  'NaN',
  'INF',
  'x y',
];
const NUMS = ['0', '1', '2', '10', '-5', '2.5', '1e1', '10'];

/** A compact, printable tree description: [role, attrs, children]; role `app:Application` under the document. */
export type TreeSpec = { roles: [string, string][]; attrs: Record<string, string>; kids: TreeSpec[] };

function randomAttrs(r: Rand): Record<string, string> {
  const a: Record<string, string> = {};
  if (chance(r, 0.85)) a['Name'] = pick(r, NAMES);
  if (chance(r, 0.3)) a['Id'] = pick(r, ['x1', 'x2', 'x3']);
  if (chance(r, 0.5)) a['Enabled'] = pick(r, ['true', 'false', 'true', '1', '0']);
  if (chance(r, 0.5)) a['Bounds.X'] = pick(r, NUMS);
  if (chance(r, 0.4)) a['native:Role'] = pick(r, ['push button', 'frame', 'panel', 'label']);
  return a;
}

function randomNode(tree: MemoryTree, r: Rand, parent: MemNode, depth: number, role?: [string, string]): MemNode {
  const [ns, local] = role ?? pick(r, ROLES);
  const n = tree.add(parent, ns, local, randomAttrs(r));
  if (depth > 0) {
    const k = Math.floor(r() * (depth > 2 ? 4 : 3));
    for (let i = 0; i < k; i++) randomNode(tree, r, n, depth - 1);
  }
  return n;
}

/**
 * A random desktop. With apps: `app:Application` nodes first, then the windows, each application listing some of
 * them (alias edges). Half of these trees have the shape a DOM facade can walk (one application owns a suffix of
 * the windows, see plain-facade.ts).
 */
export function randomTree(seed: number): MemoryTree {
  const r = seededRandom(seed);
  const tree = new MemoryTree();
  const withApps = chance(r, 0.4);
  const apps: MemNode[] = [];
  if (withApps) {
    const n = 1 + Math.floor(r() * 3);
    for (let i = 0; i < n; i++)
      apps.push(tree.add(tree.root, 'urn:platynui:app', 'Application', { Name: pick(r, ['A', 'B', 'C']) }));
  }
  const windows: MemNode[] = [];
  const nw = 1 + Math.floor(r() * 3);
  for (let i = 0; i < nw; i++) {
    const depth = 1 + Math.floor(r() * 4);
    windows.push(randomNode(tree, r, tree.root, depth, chance(r, 0.85) ? [C, 'Window'] : undefined));
  }
  if (apps.length && chance(r, 0.5)) {
    // The shape a DOM facade can walk: one application owns the last windows.
    const owner = pick(r, apps);
    const from = Math.floor(r() * (windows.length + 1));
    for (const w of windows.slice(from)) tree.alias(owner, w);
  } else if (apps.length) {
    // Several applications own windows, in the order of the applications (then the grouped view, a proper tree,
    // orders the windows as the document does); the last windows may belong to none.
    let app = 0;
    const owned = Math.floor(r() * (windows.length + 1));
    for (const w of windows.slice(0, owned)) {
      while (app < apps.length - 1 && chance(r, 0.4)) app++;
      tree.alias(apps[app]!, w);
    }
  }
  return tree;
}

export function allNodes(tree: MemoryTree): MemNode[] {
  const out: MemNode[] = [];
  const walk = (n: MemNode) => {
    out.push(n);
    for (const c of n.children) if (c.parent === n) walk(c);
  };
  walk(tree.root);
  return out;
}

// ----------------------------------------------------------------------------------------------------------------
// Queries

const ELEMENT_TESTS = [
  'Button',
  'Pane',
  'Window',
  '*',
  'node()',
  'item:ListItem',
  'item:*',
  'native:Widget',
  'app:Application',
  '*:Button',
  'Text',
  'List',
  'control:Pane',
];
const ATTRS = ['Name', 'Id', 'Enabled', 'Bounds.X', 'native:Role'];

function attr(r: Rand): string {
  return '@' + pick(r, ATTRS);
}

function literal(r: Rand): string {
  return pick(r, ["'OK'", "'a'", "''", "'1'", "'true'", "'x1'", "'push button'", "'2'", "'10'"]);
}

function number(r: Rand): string {
  return pick(r, ['0', '1', '2', '10', '2.5', '-5', '1e1']);
}

function comparison(r: Rand, depth: number): string {
  const op = chance(r, 0.7) ? '=' : '!=';
  switch (Math.floor(r() * 8)) {
    case 0:
    case 1:
      return `${attr(r)} ${op} ${literal(r)}`;
    case 2:
      return `@${pick(r, ['Bounds.X', 'Bounds.X', 'Name'])} ${op} ${number(r)}`;
    case 3:
      return `@${pick(r, ['Enabled', 'Enabled', 'Name'])} ${op} ${pick(r, ['true()', 'false()'])}`;
    case 4:
      return `${attr(r)} ${op} ${attr(r)}`;
    case 5:
      return `count(${relPath(r, depth + 1)}) ${op} ${pick(r, ['0', '1', '2', '3'])}`;
    case 6:
      return `${relPath(r, depth + 1)}/${attr(r)} ${op} ${literal(r)}`;
    default:
      return `${literal(r)} ${op} ${attr(r)}`;
  }
}

/** A predicate that does not depend on position (last() and numbers only make sense as whole predicates). */
function condition(r: Rand, depth: number): string {
  for (;;) {
    const p = predicate(r, depth);
    if (!/last\(\)|^\d+$|^count\(/.test(p)) return p;
  }
}

function predicate(r: Rand, depth: number): string {
  const k = Math.floor(r() * (depth > 1 ? 9 : 14));
  switch (k) {
    case 0:
      return pick(r, ['1', '2', '3', '1', '2']);
    case 1:
      return 'last()';
    case 2:
      return attr(r);
    case 3:
    case 4:
      return comparison(r, depth);
    case 5:
      return `not(${pick(r, [attr(r), comparison(r, depth)])})`;
    case 6:
      return `contains(${attr(r)}, ${literal(r)})`;
    case 7:
      return `starts-with(${attr(r)}, ${pick(r, ["'a'", "'O'", "''", "'p'"])})`;
    case 8:
      return `count(${relPath(r, depth + 1)})`;
    case 9:
    case 10:
      return relPath(r, depth + 1);
    case 11:
      return `${condition(r, depth + 1)} and ${condition(r, depth + 1)}`;
    case 12:
      return `${condition(r, depth + 1)} or ${condition(r, depth + 1)}`;
    default:
      return `(${predicate(r, depth + 1)})`;
  }
}

function step(r: Rand, depth: number): string {
  let s: string;
  switch (Math.floor(r() * 16)) {
    case 0:
      s = '..';
      break;
    case 1:
      s = '.';
      break;
    case 2:
      s = `ancestor::${pick(r, ELEMENT_TESTS)}`;
      break;
    case 3:
      s = `following-sibling::${pick(r, ELEMENT_TESTS)}`;
      break;
    case 4:
      s = `preceding-sibling::${pick(r, ELEMENT_TESTS)}`;
      break;
    case 5:
      s = `descendant::${pick(r, ELEMENT_TESTS)}`;
      break;
    case 6:
      s = `descendant-or-self::${pick(r, ELEMENT_TESTS)}`;
      break;
    case 7:
      s = `self::${pick(r, ELEMENT_TESTS)}`;
      break;
    case 8:
      s = `parent::${pick(r, ELEMENT_TESTS)}`;
      break;
    case 9:
      s = `ancestor-or-self::${pick(r, ELEMENT_TESTS)}`;
      break;
    default:
      s = pick(r, ELEMENT_TESTS);
  }
  const np = depth > 1 ? 0 : chance(r, 0.45) ? (chance(r, 0.2) ? 2 : 1) : 0;
  for (let i = 0; i < np; i++) s += `[${predicate(r, depth)}]`;
  return s;
}

function relPath(r: Rand, depth: number): string {
  const n = 1 + Math.floor(r() * (depth > 1 ? 2 : 3));
  let s = step(r, depth);
  for (let i = 1; i < n; i++) s += (chance(r, 0.3) ? '//' : '/') + step(r, depth);
  return s;
}

function path(r: Rand): string {
  const k = r();
  if (k < 0.08) {
    const app = pick(r, ['//app:Application', "/app:Application[@Name='A']", '/app:Application[2]', '/*[1]']);
    return app + pick(r, ['/', '//']) + relPath(r, 0);
  }
  if (k < 0.13) {
    // About applications without looking below them: what fontoxpath answers over the one tree too.
    const app = pick(r, ['//app:Application', "/app:Application[@Name='A']", '/app:Application[last()]', '/*[2]']);
    return app + pick(r, ['', '/following-sibling::*', '/..', '/self::app:Application', '/preceding-sibling::*']);
  }
  if (k < 0.45) return '//' + relPath(r, 0);
  if (k < 0.6) return '/' + relPath(r, 0);
  return relPath(r, 0);
}

function nodesExpr(r: Rand): string {
  const k = Math.floor(r() * 10);
  switch (k) {
    case 0:
      return `${path(r)} | ${path(r)}`;
    case 1:
      return `(${path(r)})[${pick(r, ['1', '2', 'last()', attr(r)])}]`;
    case 2:
      return `${path(r)}/${pick(r, ['@Name', '@*', '@native:*', '@Bounds.X'])}`;
    case 3:
      return `(${path(r)})[1]/${pick(r, ['@Name', '*', '..', 'Button'])}`;
    default:
      return path(r);
  }
}

export function randomQuery(r: Rand): string {
  const k = r();
  if (k < 0.1) return `count(${nodesExpr(r)})`;
  if (k < 0.13) return comparison(r, 0);
  return nodesExpr(r);
}

// ----------------------------------------------------------------------------------------------------------------
// Trees written down (regression cases): [qualified role, attributes, children]; an application lists the
// indices (among the document's children) of its windows as `aliases`.

export interface Spec {
  role: string;
  attrs?: Record<string, string>;
  kids?: Spec[];
  aliases?: number[];
}

export function treeFromSpec(top: Spec[]): MemoryTree {
  const tree = new MemoryTree();
  const build = (parent: MemNode, s: Spec): MemNode => {
    const colon = s.role.indexOf(':');
    const ns = colon < 0 ? C : `urn:platynui:${s.role.slice(0, colon)}`;
    const n = tree.add(parent, ns, colon < 0 ? s.role : s.role.slice(colon + 1), s.attrs ?? {});
    for (const k of s.kids ?? []) build(n, k);
    return n;
  };
  const made = top.map((s) => build(tree.root, s));
  top.forEach((s, i) => {
    for (const a of s.aliases ?? []) tree.alias(made[i]!, made[a]!);
  });
  return tree;
}

export function specFromTree(tree: MemoryTree): Spec[] {
  const top = tree.root.children;
  const spec = (n: MemNode): Spec => {
    const attrs: Record<string, string> = {};
    for (const a of n.attrs) {
      const p = a.namespaceUri ? a.namespaceUri.slice('urn:platynui:'.length) + ':' : '';
      attrs[p + a.localName] = a.value;
    }
    const s: Spec = { role: (n.prefix ? n.prefix + ':' : '') + n.localName, attrs };
    const kids = n.children.filter((c) => c.parent === n).map(spec);
    if (kids.length) s.kids = kids;
    const aliases = n.children.filter((c) => c.parent !== n).map((c) => top.indexOf(c));
    if (aliases.length) s.aliases = aliases;
    return s;
  };
  return top.map(spec);
}

// ----------------------------------------------------------------------------------------------------------------
// The index by name (XdmTree.elementsNamed): queries that reach it, and changes it must follow.

const INDEXED_TESTS = ['Button', 'Pane', 'Window', 'Text', 'List', 'item:ListItem', 'native:Widget', 'control:Pane'];

function nameLiteral(r: Rand): string {
  return `'${pick(r, NAMES)}'`;
}

/**
 * Queries the index answers from the document: `//Button`, `//Button[@Name='OK']` (either way round, with more
 * predicates, positions, further steps), `descendant::` and `descendant-or-self::` from the root, first matches.
 */
export function indexQuery(r: Rand): string {
  const t = pick(r, INDEXED_TESTS);
  const named = chance(r, 0.5) ? `[@Name = ${nameLiteral(r)}]` : `[${nameLiteral(r)} = @Name]`;
  const more = chance(r, 0.4) ? `[${predicate(r, 1)}]` : '';
  switch (Math.floor(r() * 9)) {
    case 0:
      return `//${t}`;
    case 1:
      return `//${t}${named}${more}`;
    case 2:
      return `(//${t}${named})[${pick(r, ['1', '2', 'last()'])}]`;
    case 3:
      return `//${t}${named}${more}/${relPath(r, 1)}`;
    case 4:
      return `count(//${t}${chance(r, 0.5) ? named : ''})`;
    case 5:
      return `/${pick(r, ['descendant', 'descendant-or-self'])}::${t}${chance(r, 0.5) ? named : ''}${more}`;
    case 6:
      return `/descendant::${t}[${pick(r, ['1', '2', 'last()'])}]`;
    case 7:
      return `//${t}${named} | //${pick(r, INDEXED_TESTS)}${more}`;
    default:
      return `(//${t})[1]`;
  }
}

/**
 * A random change through the tree's methods: an element added, a subtree removed, a Name set or removed. Returns
 * queries about what changed (the element's name, its old and new Name), for the index to answer next.
 */
export function mutate(tree: MemoryTree, r: Rand): string[] {
  const elements = allNodes(tree).filter((n) => !n.document && n.namespaceUri !== 'urn:platynui:app');
  if (!elements.length) return [];
  const target = pick(r, elements);
  const k = r();
  let changed = target;
  const names = [target.attrs.find((a) => a.localName === 'Name' && a.namespaceUri === null)?.value];
  if (k < 0.4) {
    // Under an element (never directly under the document, so the applications keep owning the last windows).
    const [ns, local] = pick(r, ROLES);
    changed = tree.add(target, ns, local, randomAttrs(r), Math.floor(r() * (target.children.length + 1)));
    names.push(changed.attrs.find((a) => a.localName === 'Name' && a.namespaceUri === null)?.value);
  } else if (k < 0.65) {
    tree.remove(target);
  } else {
    const name = chance(r, 0.85) ? pick(r, NAMES) : undefined;
    tree.setAttribute(target, 'Name', name);
    names.push(name);
  }
  const test = (changed.prefix ? `${changed.prefix}:` : '') + changed.localName;
  const queries = [`//${test}`, `count(//${test})`];
  for (const name of names) if (name !== undefined) queries.push(`//${test}[@Name = '${name}']`);
  return queries;
}
