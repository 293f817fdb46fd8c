// Robustness of generated locators: mutate trees the way applications change between recording and running a test,
// and count how many locators still find the same node — the generator's best (first) locator, any of its
// alternatives, all alternatives, and the absolute positional path recorders emit as the baseline.
// Fairness: a case where the mutation leaves the target with a twin (a node nothing but its position tells apart) is
// ambiguous for every locator; such cases are counted (`ambiguous`) and left out instead of counted as failures.
// Families marked `separate` (a change no title-based locator can survive by definition) are reported on their own
// and are not part of the overall figure.
// Used by bench/locator-robustness.ts (mock and synthetic trees) and bench/locator-robustness-gtk.ts (a real
// gtk3-demo captured from the desktop).
import {
  absolutePath,
  DEFAULT_CONFIG,
  isBlacklisted,
  LocatorGenerator,
  LocatorXdmTree,
  selectNodes,
} from '../shared/locators/index.js';
import type { LocatorNode, LocatorTree } from '../shared/locators/tree.js';
import { MUTATIONS, twinsOf } from './locator-trees.js';

interface Tally {
  best: number;
  any: number;
  alternatives: number;
  alternativesTotal: number;
  absolute: number;
  cases: number;
  ambiguous: number;
  /** Cases whose best locator needs no position (the node has an identity of its own), and how many survive. */
  identifiable: number;
  identifiableBest: number;
}

const stable = (key: string) => !isBlacklisted(key, DEFAULT_CONFIG);

function survives(xdm: LocatorXdmTree, xpath: string, key: string): boolean {
  try {
    const selected = selectNodes(xdm, xpath);
    return selected.length === 1 && selected[0]!.key === key;
  } catch {
    return false;
  }
}

export function sample(nodes: readonly LocatorNode[], count: number): LocatorNode[] {
  if (nodes.length <= count) return [...nodes];
  const step = nodes.length / count;
  return Array.from({ length: count }, (_, i) => nodes[Math.floor(i * step)]!);
}

const pct = (n: number, d: number) => ((100 * n) / Math.max(1, d)).toFixed(1);

export function measure(label: string, tree: LocatorTree, targets: readonly LocatorNode[]): void {
  const generator = new LocatorGenerator(tree);
  const tallies = new Map<string, Tally>();
  const shared = new Map<string, { xdm: LocatorXdmTree; twins: Map<string, number> }>();
  const prepare = (mutated: LocatorTree) => ({ xdm: new LocatorXdmTree(mutated), twins: twinsOf(mutated, stable) });
  for (const mutation of MUTATIONS) {
    tallies.set(mutation.name, {
      best: 0,
      any: 0,
      alternatives: 0,
      alternativesTotal: 0,
      absolute: 0,
      cases: 0,
      ambiguous: 0,
      identifiable: 0,
      identifiableBest: 0,
    });
    if (!mutation.perTarget) shared.set(mutation.name, prepare(mutation.apply(tree)));
  }
  let unlocated = 0;
  let positionOnly = 0;
  for (const target of targets) {
    const locators = generator.generate(target);
    if (locators.length === 0) {
      unlocated++;
      continue;
    }
    const positional = locators[0]!.strategy === 'position';
    if (positional) positionOnly++;
    const absolute = absolutePath(tree, target);
    for (const mutation of MUTATIONS) {
      const { xdm, twins } = shared.get(mutation.name) ?? prepare(mutation.apply(tree, target));
      const tally = tallies.get(mutation.name)!;
      if ((twins.get(target.key) ?? 0) > 0) {
        tally.ambiguous++;
        continue;
      }
      const ok = locators.map((l) => survives(xdm, l.xpath, target.key));
      tally.cases++;
      if (ok[0]) tally.best++;
      if (!positional) {
        tally.identifiable++;
        if (ok[0]) tally.identifiableBest++;
      }
      if (ok.some(Boolean)) tally.any++;
      tally.alternatives += ok.filter(Boolean).length;
      tally.alternativesTotal += ok.length;
      if (survives(xdm, absolute, target.key)) tally.absolute++;
    }
  }
  let sums = { best: 0, any: 0, alternatives: 0, absolute: 0, identifiable: 0 };
  let families = 0;
  for (const mutation of MUTATIONS) {
    const t = tallies.get(mutation.name)!;
    const name = `${label}.${mutation.name}${mutation.separate ? '.separate' : ''}`;
    console.log(`${name}.best ${pct(t.best, t.cases)} %`);
    console.log(`${name}.any ${pct(t.any, t.cases)} %`);
    console.log(`${name}.alternatives ${pct(t.alternatives, t.alternativesTotal)} %`);
    console.log(`${name}.absolute ${pct(t.absolute, t.cases)} %`);
    console.log(`${name}.ambiguous ${t.ambiguous} cases`);
    if (mutation.separate || t.cases === 0) continue;
    families++;
    sums = {
      best: sums.best + t.best / t.cases,
      any: sums.any + t.any / t.cases,
      alternatives: sums.alternatives + t.alternatives / Math.max(1, t.alternativesTotal),
      absolute: sums.absolute + t.absolute / t.cases,
      identifiable: sums.identifiable + t.identifiableBest / Math.max(1, t.identifiable),
    };
  }
  const n = Math.max(1, families);
  const best = (100 * sums.best) / n;
  const absolute = (100 * sums.absolute) / n;
  console.log(`${label}.targets ${targets.length} nodes`);
  console.log(`${label}.unlocated ${unlocated} nodes`);
  // Nodes that nothing but their position tells apart (their best locator has a position predicate).
  console.log(`${label}.position-only ${positionOnly} nodes`);
  console.log(`${label}.overall.families ${families} mutations`);
  console.log(`${label}.overall.best ${best.toFixed(1)} %`);
  console.log(`${label}.overall.any ${((100 * sums.any) / n).toFixed(1)} %`);
  console.log(`${label}.overall.alternatives ${((100 * sums.alternatives) / n).toFixed(1)} %`);
  console.log(`${label}.overall.absolute ${absolute.toFixed(1)} %`);
  console.log(`${label}.overall.best-without-position-only ${((100 * sums.identifiable) / n).toFixed(1)} %`);
  console.log(`${label}.overall.best-vs-absolute ${(best / Math.max(0.1, absolute)).toFixed(2)} x`);
}
