// Robustness of generated locators: mutate trees the way applications change between recording and running a test,
// and count how many locators still find the same node — the generator's best locator, any of its alternatives,
// all alternatives, and the absolute positional path recorders emit as the baseline.
//   node dist/bench/locator-robustness.js
import { absolutePath, LocatorGenerator, LocatorXdmTree, selectNodes } from '../shared/locators/index.js';
import type { LocatorNode, LocatorTree } from '../shared/locators/tree.js';
import { mockLocatorTree, MUTATIONS, protectedKeys, syntheticTree } from './locator-trees.js';

interface Tally {
  best: number;
  any: number;
  alternatives: number;
  alternativesTotal: number;
  absolute: number;
  cases: number;
}

function survives(xdm: LocatorXdmTree, xpath: string, key: string): boolean {
  try {
    const selected = selectNodes(xdm, xpath);
    return selected.length === 1 && selected[0]!.key === key;
  } catch {
    return false;
  }
}

function sample(nodes: readonly LocatorNode[], count: number): LocatorNode[] {
  if (nodes.length <= count) return [...nodes];
  const step = nodes.length / count;
  return Array.from({ length: count }, (_, i) => nodes[Math.floor(i * step)]!);
}

function measure(label: string, tree: LocatorTree, targets: readonly LocatorNode[]): Map<string, Tally> {
  const generator = new LocatorGenerator(tree);
  const tallies = new Map<string, Tally>();
  const shared = new Map<string, LocatorXdmTree>();
  for (const mutation of MUTATIONS) {
    tallies.set(mutation.name, { best: 0, any: 0, alternatives: 0, alternativesTotal: 0, absolute: 0, cases: 0 });
    if (mutation.name !== 'unrelated-renamed')
      shared.set(mutation.name, new LocatorXdmTree(mutation.apply(tree, new Set())));
  }
  for (const target of targets) {
    const locators = generator.generate(target);
    if (locators.length === 0) continue;
    const absolute = absolutePath(tree, target);
    for (const mutation of MUTATIONS) {
      const xdm = shared.get(mutation.name) ?? new LocatorXdmTree(mutation.apply(tree, protectedKeys(target)));
      const tally = tallies.get(mutation.name)!;
      const ok = locators.map((l) => survives(xdm, l.xpath, target.key));
      tally.cases++;
      if (ok[0]) tally.best++;
      if (ok.some(Boolean)) tally.any++;
      tally.alternatives += ok.filter(Boolean).length;
      tally.alternativesTotal += ok.length;
      if (survives(xdm, absolute, target.key)) tally.absolute++;
    }
  }
  let sums = { best: 0, any: 0, alternatives: 0, absolute: 0 };
  for (const [name, t] of tallies) {
    const pct = (n: number, d: number) => ((100 * n) / Math.max(1, d)).toFixed(1);
    console.log(`${label}.${name}.best ${pct(t.best, t.cases)} %`);
    console.log(`${label}.${name}.any ${pct(t.any, t.cases)} %`);
    console.log(`${label}.${name}.alternatives ${pct(t.alternatives, t.alternativesTotal)} %`);
    console.log(`${label}.${name}.absolute ${pct(t.absolute, t.cases)} %`);
    sums = {
      best: sums.best + t.best / t.cases,
      any: sums.any + t.any / t.cases,
      alternatives: sums.alternatives + t.alternatives / t.alternativesTotal,
      absolute: sums.absolute + t.absolute / t.cases,
    };
  }
  const n = tallies.size;
  const best = (100 * sums.best) / n;
  const absolute = (100 * sums.absolute) / n;
  console.log(`${label}.targets ${targets.length} nodes`);
  console.log(`${label}.overall.best ${best.toFixed(1)} %`);
  console.log(`${label}.overall.any ${((100 * sums.any) / n).toFixed(1)} %`);
  console.log(`${label}.overall.alternatives ${((100 * sums.alternatives) / n).toFixed(1)} %`);
  console.log(`${label}.overall.absolute ${absolute.toFixed(1)} %`);
  console.log(`${label}.overall.best-vs-absolute ${(best / Math.max(0.1, absolute)).toFixed(2)} x`);
  return tallies;
}

const mock = mockLocatorTree();
measure('robustness.mock', mock, mock.nodes);
const synthetic = syntheticTree(1500);
measure('robustness.synthetic', synthetic, sample(synthetic.nodes, 150));
