// Locator generation time per node on a cached 10,000-node tree: the index is built once, then each node gets its
// ranked candidates (index only) and its verified locators (every returned locator evaluated by the XPath engine).
//   node dist/bench/locator-speed.js
import { LocatorGenerator, selectNodes } from '../shared/locators/index.js';
import type { LocatorNode } from '../shared/locators/tree.js';
import { syntheticTree } from './locator-trees.js';

const GOAL_MS = 50;
const tree = syntheticTree(10_000);
console.log(`speed.tree.nodes ${tree.nodes.length} nodes`);
let started = performance.now();
const generator = new LocatorGenerator(tree);
console.log(`speed.index.build ${(performance.now() - started).toFixed(1)} ms`);

const step = Math.max(1, Math.floor(tree.nodes.length / 200));
const count = Number(process.env.LOCATOR_BENCH_NODES ?? 200);
const targets: LocatorNode[] = tree.nodes.filter((_, i) => i % step === 0).slice(0, count);

// Warm-up (JIT), not measured.
for (const node of targets.slice(0, 10)) generator.generate(node);

const propose: number[] = [];
const generate: number[] = [];
let locators = 0;
let unlocated = 0;
for (const node of targets) {
  started = performance.now();
  generator.propose(node);
  propose.push(performance.now() - started);
  started = performance.now();
  const found = generator.generate(node);
  generate.push(performance.now() - started);
  locators += found.length;
  if (found.length === 0) unlocated++;
}

function stats(name: string, values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mean = values.reduce((s, v) => s + v, 0) / values.length;
  const p95 = sorted[Math.floor(sorted.length * 0.95)]!;
  console.log(`${name}.mean ${mean.toFixed(2)} ms/node`);
  console.log(`${name}.p95 ${p95.toFixed(2)} ms/node`);
  console.log(`${name}.max ${sorted[sorted.length - 1]!.toFixed(2)} ms/node`);
  return mean;
}

console.log(`speed.targets ${targets.length} nodes`);
stats('speed.propose', propose);
const mean = stats('speed.generate-verified', generate);
console.log(`speed.locators-per-node ${(locators / targets.length).toFixed(2)} locators`);
console.log(`speed.unlocated ${unlocated} nodes`);
console.log(`speed.goal-ratio ${(mean / GOAL_MS).toFixed(3)} x-of-50ms`);

// The same verification with fontoxpath only (the engine without the compiled fast path), on a few nodes.
const few = targets.slice(0, 5);
started = performance.now();
let checked = 0;
for (const node of few) {
  for (const locator of generator.propose(node).slice(0, generator.index.config.maxResults)) {
    selectNodes(generator.xdm, locator.xpath, 'fontoxpath');
    checked++;
  }
}
const perQuery = (performance.now() - started) / Math.max(1, checked);
console.log(`speed.verify-fontoxpath ${perQuery.toFixed(1)} ms/query`);
