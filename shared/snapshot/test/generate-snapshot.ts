/** Seeded random snapshot documents: the trees the mock provider serves, and XML spellings of them. */
import { seededRandom } from '../../random.js';

export type Rand = () => number;
const pick = <T>(r: Rand, a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
const chance = (r: Rand, p: number): boolean => r() < p;

const ROLES = ['Pane', 'Button', 'Button', 'Text', 'List', 'item:ListItem', 'native:Widget', 'Edit'];
const NAMES = ['OK', 'Cancel', 'a', 'ab', '1', '10', '1.0', '', ' 2 ', 'true', 'x y', 'a&b', '<c>', 'q"uote', "it's"];
const NUMS = ['0', '1', '2', '10', '-5', '2.5', '1e1'];

export interface RandomNode {
  role: string;
  attrs: Array<[string, string]>;
  kids: RandomNode[];
}

let ids = 0;

function attributes(r: Rand, role: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (chance(r, 0.85)) out.push(['Name', pick(r, NAMES)]);
  if (chance(r, 0.3)) out.push(['Id', pick(r, ['x1', 'x2', '', '7'])]);
  if (chance(r, 0.5)) out.push(['Enabled', pick(r, ['true', 'false', '1', '0'])]);
  if (chance(r, 0.4)) out.push(['IsEnabled', pick(r, ['true', 'false'])]);
  if (chance(r, 0.3)) out.push(['Bounds', `{"x":${pick(r, NUMS)},"y":2,"width":30,"height":4}`]);
  if (chance(r, 0.1)) out.push(['Bounds.X', pick(r, NUMS)]);
  if (chance(r, 0.1)) out.push(['native:Bounds.X', pick(r, NUMS)]);
  if (chance(r, 0.4)) out.push(['native:Role', pick(r, ['push button', 'frame', 'panel'])]);
  if (chance(r, 0.3)) out.push(['RuntimeId', chance(r, 0.1) ? '42' : `mock:given-${ids++}`]);
  if (chance(r, 0.02))
    out.push(['RuntimeId', `mock:${role.replace(/^.*:/, '').toLowerCase()}-${1 + Math.floor(r() * 3)}`]);
  if (chance(r, 0.3)) out.push(['SupportedPatterns', pick(r, ['["Element"]', '["Element","Focusable"]', '[]'])]);
  if (chance(r, 0.1)) out.push(['native:SupportedPatterns', 'x']);
  if (chance(r, 0.15)) out.push(['Technology', 'Other']);
  if (chance(r, 0.2)) out.push(['IsSecure', pick(r, ['true', 'false'])]);
  if (chance(r, 0.3)) out.push(['Text', pick(r, ['secret', 'plain'])]);
  if (chance(r, 0.1)) out.push(['native:Text', 'visible']);
  if (chance(r, 0.1)) out.push(['Value', '12']);
  if (chance(r, 0.1)) out.push(['native:Name', 'nn']);
  // One attribute name once per element (XML): the last spelling wins.
  const seen = new Map<string, string>();
  for (const [k, v] of out) seen.set(k, v);
  return [...seen];
}

function node(r: Rand, depth: number, role = pick(r, ROLES)): RandomNode {
  const kids: RandomNode[] = [];
  if (depth > 0) {
    const k = Math.floor(r() * (depth > 2 ? 4 : 3));
    for (let i = 0; i < k; i++) kids.push(node(r, depth - 1));
  }
  return { role, attrs: attributes(r, role), kids };
}

/** Top-level nodes: applications holding windows, windows, sometimes other elements; maybe under a `<Desktop>`. */
export function randomSnapshotTree(seed: number): { roots: RandomNode[]; desktop: boolean } {
  const r = seededRandom(seed);
  ids = 0;
  const roots: RandomNode[] = [];
  const n = 1 + Math.floor(r() * 4);
  for (let i = 0; i < n; i++) {
    if (chance(r, 0.4)) {
      const windows: RandomNode[] = [];
      const k = Math.floor(r() * 3);
      for (let w = 0; w < k; w++) windows.push(node(r, 1 + Math.floor(r() * 3), 'Window'));
      roots.push({ role: 'app:Application', attrs: [['Name', pick(r, ['A', 'B'])]], kids: windows });
    } else roots.push(node(r, 1 + Math.floor(r() * 3), chance(r, 0.8) ? 'Window' : undefined));
  }
  return { roots, desktop: chance(r, 0.15) };
}

const NAMESPACES =
  'xmlns="urn:platynui:control" xmlns:item="urn:platynui:item" xmlns:app="urn:platynui:app" xmlns:native="urn:platynui:native"';

/** Escapes for a double-quoted attribute value. */
function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** The tree as plain snapshot XML (the form `snapshot` writes). */
export function snapshotXml(tree: { roots: RandomNode[]; desktop: boolean }): string {
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n', `<snapshot ${NAMESPACES}>\n`];
  const write = (n: RandomNode, depth: number) => {
    const attrs = n.attrs.map(([k, v]) => ` ${k}="${escape(v)}"`).join('');
    const indent = '  '.repeat(depth);
    if (!n.kids.length) out.push(`${indent}<${n.role}${attrs}/>\n`);
    else {
      out.push(`${indent}<${n.role}${attrs}>\n`);
      for (const k of n.kids) write(k, depth + 1);
      out.push(`${indent}</${n.role}>\n`);
    }
  };
  if (tree.desktop) write({ role: 'Desktop', attrs: [['Name', 'Mine']], kids: tree.roots }, 1);
  else for (const root of tree.roots) write(root, 1);
  out.push('</snapshot>\n');
  return out.join('');
}
