import { evaluateOverTree } from '../xpath/evaluate.js';
import type { LocatorConfig } from './config.js';
import { locatorCandidates, describeCandidate, LocatorIndex, type Locator } from './generate.js';
import { LocatorXdmTree, type LocatorNode, type LocatorTree } from './tree.js';
import { selectNodesFast } from './verify-candidates.js';

export { selectNodesFast, verifyLocators } from './verify-candidates.js';

/** Evaluates an XPath with the real engine over a LocatorTree, shaped as the runtime's worker shapes its mirror. */
export function selectNodes(xdm: LocatorXdmTree, xpath: string, engine: 'auto' | 'fontoxpath' = 'auto'): LocatorNode[] {
  const fast = engine === 'auto' ? selectNodesFast(xdm, xpath) : undefined;
  if (fast) return fast;
  const { items } = evaluateOverTree(xdm, xpath, xdm.root);
  const nodes: LocatorNode[] = [];
  for (const item of items) if (item.kind === 'node') nodes.push(item.node);
  return nodes;
}

/**
 * Generates locators for a node of a cached tree and verifies each with the XPath engine (evaluateOverTree): only
 * locators that select exactly this node are returned, best first.
 */
export class LocatorGenerator {
  readonly index: LocatorIndex;
  readonly xdm: LocatorXdmTree;
  constructor(
    readonly tree: LocatorTree,
    config: Partial<LocatorConfig> = {},
  ) {
    this.index = new LocatorIndex(tree, config);
    this.xdm = new LocatorXdmTree(tree);
  }

  /** Candidates from the index, unverified (fast). */
  propose(target: LocatorNode): Locator[] {
    return locatorCandidates(this.index, target).map((candidate) => describeCandidate(candidate, this.tree));
  }

  /** Verified locators, at most config.maxResults. */
  generate(target: LocatorNode): Locator[] {
    const out: Locator[] = [];
    for (const locator of this.propose(target)) {
      if (out.length >= this.index.config.maxResults) break;
      let selected: LocatorNode[];
      try {
        selected = selectNodes(this.xdm, locator.xpath);
      } catch {
        continue;
      }
      if (selected.length === 1 && selected[0] === target) out.push({ ...locator, matches: selected.length });
    }
    // A dropped candidate lets one from further down in: keep the best first (the sort is stable).
    return out.sort((a, b) => b.score - a.score);
  }
}
