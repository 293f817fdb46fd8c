/**
 * Differential test: the fast path against fontoxpath on random trees and random queries from the supported
 * subset, node for node and in order. Deterministic (seeded). A failing case is shrunk (tree and query) and printed
 * in the form of a REGRESSIONS entry, to be added below.
 *
 * fontoxpath is asked as the XPath pipeline asks it when the fast path declines (evaluateWithFontoxpath): over the
 * one tree without its alias edges, queries about applications included. Where that could answer differently (a
 * step below an application), it refuses with the one-tree error; it must never give a different answer.
 */
import { test } from 'node:test';
import { seededRandom } from '../../random.js';
import assert from 'node:assert/strict';
import { compileFastPath, FastPathFallback, type FastItem } from '../fast/index.js';
import fontoxpath from 'fontoxpath';
import { evaluateWithFontoxpath, type XPathItem } from '../evaluate-core.js';
import { OneTreeError } from '../one-tree.js';
import type { MemNode, MemoryTree } from '../memory-tree.js';
import {
  allNodes,
  indexQuery,
  mutate,
  randomQuery,
  randomTree,
  specFromTree,
  treeFromSpec,
  type Spec,
} from './generate.js';

function canon(items: readonly FastItem<MemNode>[], ids: Map<MemNode, number>): string {
  return items
    .map((i) =>
      i.type === 'node'
        ? `n${ids.get(i.node)}`
        : i.type === 'attribute'
          ? `a${ids.get(i.owner)}:${i.namespaceUri ?? ''}:${i.localName}=${JSON.stringify(i.value)}`
          : `v:${typeof i.value}:${String(i.value)}`,
    )
    .join(' ');
}

type Outcome = 'same' | 'refused' | 'fallback' | { failure: string };

function hasAliases(tree: MemoryTree): boolean {
  return tree.root.children.some((a) => a.children.some((w) => w.parent !== a));
}

function asFastItem(item: XPathItem<MemNode>): FastItem<MemNode> {
  switch (item.kind) {
    case 'node':
      return { type: 'node', node: item.node };
    case 'attribute':
      return {
        type: 'attribute',
        owner: item.owner,
        namespaceUri: item.namespaceUri,
        localName: item.localName,
        value: item.value,
      };
    case 'value':
      return { type: 'value', value: item.value };
  }
}

/** fontoxpath's answer as the pipeline gives it, canonical; 'refused' for the one-tree error. */
function reference(tree: MemoryTree, context: MemNode, query: string, ids: Map<MemNode, number>): string {
  try {
    return canon(evaluateWithFontoxpath(fontoxpath, tree, query, context).map(asFastItem), ids);
  } catch (e) {
    if (e instanceof OneTreeError) return 'refused';
    return `error ${(e as Error).message.split('\n')[0]}`;
  }
}

/** The fast path's answer, canonical; 'fallback' when it hands the query to fontoxpath. */
function fastAnswer(tree: MemoryTree, context: MemNode, query: string, ids: Map<MemNode, number>): Outcome | string {
  const fq = compileFastPath(query);
  if (!fq) return { failure: 'not compiled' };
  try {
    return canon([...fq.evaluate(tree, context)], ids);
  } catch (e) {
    if (e instanceof FastPathFallback) return 'fallback';
    return { failure: `fast path threw ${(e as Error).stack}` };
  }
}

/**
 * The fast path walking the tree and the fast path using the tree's index by name (built on first use, dropped by
 * every change): both must be fontoxpath's answer.
 */
function check(tree: MemoryTree, context: MemNode, query: string): Outcome {
  const ids = new Map(allNodes(tree).map((n, i) => [n, i]));
  const saved = tree.index;
  let walked: Outcome | string;
  let indexed: Outcome | string;
  try {
    tree.index = false;
    walked = fastAnswer(tree, context, query, ids);
    tree.index = true;
    indexed = fastAnswer(tree, context, query, ids);
  } finally {
    tree.index = saved;
  }
  if (typeof walked === 'object') return walked;
  if (typeof indexed === 'object') return indexed;
  if (walked !== 'fallback' && indexed !== 'fallback' && walked !== indexed)
    return { failure: `walking: ${walked}\nindexed: ${indexed}` };
  const fast = walked !== 'fallback' ? walked : indexed;
  if (fast === 'fallback') return 'fallback';
  const ref = reference(tree, context, query, ids);
  if (ref === fast) return 'same';
  if (ref === 'refused') return 'refused';
  return { failure: `fontoxpath: ${ref}\nfast path:  ${fast}` };
}

function fails(spec: Spec[], contextIndex: number, query: string): boolean {
  const tree = treeFromSpec(spec);
  const nodes = allNodes(tree);
  const ctx = nodes[Math.min(contextIndex, nodes.length - 1)]!;
  const o = check(tree, ctx, query);
  return typeof o === 'object';
}

/** Smaller variants of a query: one predicate, one step or one union branch dropped. */
function queryVariants(q: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < q.length; i++) {
    if (q[i] !== '[') continue;
    let depth = 0;
    for (let j = i; j < q.length; j++) {
      if (q[j] === '[') depth++;
      else if (q[j] === ']' && --depth === 0) {
        out.push(q.slice(0, i) + q.slice(j + 1));
        break;
      }
    }
  }
  for (const part of q.split(' | ')) if (part !== q) out.push(part);
  const slashes = [...q.matchAll(/\/+/g)].map((m) => m.index);
  for (let k = 0; k + 1 < slashes.length; k++) out.push(q.slice(0, slashes[k]) + q.slice(slashes[k + 1]));
  return out.filter((v) => compileFastPath(v) !== undefined);
}

function specVariants(spec: Spec[]): Spec[][] {
  const out: Spec[][] = [];
  const paths: number[][] = [];
  const walk = (list: Spec[], path: number[]) =>
    list.forEach((s, i) => {
      paths.push([...path, i]);
      walk(s.kids ?? [], [...path, i]);
    });
  walk(spec, []);
  for (const p of paths) {
    const copy = structuredClone(spec);
    if (p.length === 1) {
      // Removing a top-level node renumbers aliases; keep it simple: only remove nodes nobody aliases.
      if (copy.some((s) => s.aliases?.includes(p[0]!))) continue;
      copy.splice(p[0]!, 1);
      for (const s of copy) if (s.aliases) s.aliases = s.aliases.map((a) => (a > p[0]! ? a - 1 : a));
    } else {
      let list = copy;
      for (const i of p.slice(0, -1)) list = list[i]!.kids!;
      list.splice(p[p.length - 1]!, 1);
    }
    out.push(copy);
  }
  return out;
}

function shrink(spec: Spec[], contextIndex: number, query: string): { spec: Spec[]; context: number; query: string } {
  let changed = true;
  while (changed) {
    changed = false;
    for (const q of queryVariants(query)) {
      if (fails(spec, contextIndex, q)) {
        query = q;
        changed = true;
        break;
      }
    }
    if (changed) continue;
    for (const s of specVariants(spec)) {
      if (fails(s, contextIndex, query)) {
        spec = s;
        changed = true;
        break;
      }
    }
  }
  return { spec, context: contextIndex, query };
}

/** Cases found by this test (shrunk), kept forever. `context`: index in document order (0: the document). */
const REGRESSIONS: { spec: Spec[]; context: number; query: string }[] = [
  // fontoxpath orders attributes of one element by local name, also for `@*` of a single element.
  {
    spec: [{ role: 'Window', attrs: { Name: 'OK', Id: 'x2', Enabled: '1', 'Bounds.X': '1' } }],
    context: 0,
    query: '//../@*',
  },
  {
    spec: [{ role: 'Window', attrs: { Name: 'OK', 'native:Role': 'frame', Id: 'x2' } }],
    context: 1,
    query: '@* | @Name',
  },
  // An application owning the last windows: its children, the descendant axis below it and above it (fontoxpath
  // refuses the step below the application; the test holds it to that rather than to a different answer).
  {
    spec: [
      { role: 'app:Application', attrs: { Name: 'A' }, aliases: [3, 4] },
      { role: 'app:Application', attrs: { Name: 'B' } },
      { role: 'Window', attrs: { Name: 'w1' }, kids: [{ role: 'Button', attrs: { Name: 'OK' } }] },
      { role: 'Window', attrs: { Name: 'w2' }, kids: [{ role: 'Button', attrs: { Name: 'OK' } }] },
      { role: 'Window', attrs: { Name: 'w3' }, kids: [{ role: 'Button', attrs: { Name: 'OK' } }] },
    ],
    context: 0,
    query: "app:Application[@Name='A']//Button | //Window[1]/Button",
  },
  // Positional predicates on reverse axes count from the context outwards.
  {
    spec: [{ role: 'Window', kids: [{ role: 'Pane', kids: [{ role: 'Pane', kids: [{ role: 'Button' }] }] }] }],
    context: 4,
    query: 'ancestor::*[2] | preceding-sibling::*[1] | (ancestor::*)[1]',
  },
];

test('fast path regressions agree with fontoxpath', () => {
  for (const r of REGRESSIONS) {
    const tree = treeFromSpec(r.spec);
    const ctx = allNodes(tree)[r.context]!;
    const o = check(tree, ctx, r.query);
    assert.ok(typeof o === 'string' && o !== 'fallback', `${r.query}: ${JSON.stringify(o)}`);
    if (r.query.includes('app:Application[')) assert.equal(o, 'refused', r.query);
  }
});

test('10,000 random queries over random trees: the fast path gives fontoxpath answers, or fontoxpath refuses', () => {
  const QUERIES = 10_000;
  const PER_TREE = 50;
  const counts = { same: 0, refused: 0, fallback: 0, aliasTrees: 0, applicationQueriesSame: 0 };
  const needlessRefusals: string[] = [];
  for (let t = 0; t * PER_TREE < QUERIES; t++) {
    const tree = randomTree(1000 + t);
    if (hasAliases(tree)) counts.aliasTrees++;
    const nodes = allNodes(tree);
    const r = seededRandom(7 + t);
    for (let i = 0; i < PER_TREE; i++) {
      const query = randomQuery(r);
      const ci = r() < 0.7 ? 0 : Math.floor(r() * nodes.length);
      const o = check(tree, nodes[ci]!, query);
      if (typeof o === 'object') {
        const small = shrink(specFromTree(tree), ci, query);
        const tree2 = treeFromSpec(small.spec);
        const o2 = check(tree2, allNodes(tree2)[small.context]!, small.query);
        assert.fail(
          `fast path differs from fontoxpath on ${JSON.stringify(query)} (tree seed ${1000 + t}).\n` +
            `Shrunk, add to REGRESSIONS:\n${JSON.stringify(small)}\n${typeof o2 === 'object' ? o2.failure : o.failure}`,
        );
      }
      counts[o]++;
      if (o === 'same' && query.includes('app:') && hasAliases(tree)) counts.applicationQueriesSame++;
      // Without alias edges fontoxpath's tree is the one tree: nothing to refuse.
      if (o === 'refused' && !hasAliases(tree)) needlessRefusals.push(query);
    }
  }
  console.log(JSON.stringify(counts));
  // The comparison must mostly be a real one: few fallbacks and refusals, alias trees and application queries in.
  assert.equal(counts.same + counts.refused + counts.fallback, QUERIES);
  assert.deepEqual(needlessRefusals, [], 'a query over a tree without alias edges was refused');
  assert.ok(counts.same > QUERIES * 0.8, JSON.stringify(counts));
  assert.ok(counts.fallback < QUERIES * 0.03, JSON.stringify(counts));
  assert.ok(counts.aliasTrees >= 40, JSON.stringify(counts));
  assert.ok(counts.applicationQueriesSame >= 100, JSON.stringify(counts));
  assert.ok(counts.refused > 0, JSON.stringify(counts));
});

test('the index by name gives fontoxpath answers, also after elements are added, removed and renamed', () => {
  const TREES = 120;
  const counts = { same: 0, refused: 0, fallback: 0, builds: 0, lookups: 0, nameLookups: 0, changes: 0 };
  for (let t = 0; t < TREES; t++) {
    const tree = randomTree(5000 + t);
    const r = seededRandom(300 + t);
    let about: string[] = []; // queries about the last changes, asked first
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 12 + about.length; i++) {
        const nodes = allNodes(tree);
        const query = i < about.length ? about[i]! : r() < 0.75 ? indexQuery(r) : randomQuery(r);
        const ci = i < about.length || r() < 0.85 ? 0 : Math.floor(r() * nodes.length);
        const o = check(tree, nodes[ci]!, query);
        if (typeof o === 'object') {
          assert.fail(
            `after ${counts.changes} changes, ${JSON.stringify(query)} (tree seed ${5000 + t}, round ${round}):\n` +
              `${JSON.stringify(specFromTree(tree))}\ncontext ${ci}\n${o.failure}`,
          );
        }
        counts[o]++;
      }
      about = [];
      for (let c = 1 + Math.floor(r() * 3); c > 0; c--) {
        about.push(...mutate(tree, r));
        counts.changes++;
      }
    }
    counts.builds += tree.indexBuilds;
    counts.lookups += tree.indexLookups;
    counts.nameLookups += tree.nameLookups;
  }
  console.log(JSON.stringify(counts));
  // The index was really asked (by name and by element and Name) and rebuilt after changes.
  assert.ok(counts.lookups > 1500, JSON.stringify(counts));
  assert.ok(counts.nameLookups > 1500, JSON.stringify(counts));
  assert.ok(counts.builds > TREES * 4, JSON.stringify(counts));
  assert.ok(counts.same > (TREES * 5 * 12 * 9) / 10, JSON.stringify(counts));
});
