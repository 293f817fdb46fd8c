// Verification that needs no full XPath engine loaded (fontoxpath is large): the compiled fast path over a
// LocatorTree, and verification through a caller's engine (the runtime's XPath service).
import { compileFastPath, FastPathFallback } from '../xpath/fast/index.js';
import type { Locator } from './generate.js';
import type { LocatorNode, LocatorXdmTree } from './tree.js';

/**
 * The nodes an XPath selects over a LocatorTree by the compiled fast path (differentially tested against
 * fontoxpath); undefined when the XPath is outside its subset (then selectNodes of verify.ts, the full engine).
 * With `limit`, at most that many (a uniqueness check needs two).
 */
export function selectNodesFast(
  xdm: LocatorXdmTree,
  xpath: string,
  options: { limit?: number } = {},
): LocatorNode[] | undefined {
  const fast = compileFastPath(xpath);
  if (!fast) return undefined;
  try {
    const nodes: LocatorNode[] = [];
    for (const item of fast.evaluate(xdm, xdm.root, options)) if (item.type === 'node') nodes.push(item.node);
    return nodes;
  } catch (error) {
    if (!(error instanceof FastPathFallback)) throw error;
    return undefined;
  }
}

/** Verifies locators asynchronously (the live tree through the runtime's XPath service): keeps those that match. */
export async function verifyLocators(
  candidates: readonly Locator[],
  selects: (xpath: string) => Promise<{ matches: number; isTarget: boolean }>,
  limit: number,
): Promise<Locator[]> {
  const out: Locator[] = [];
  for (const locator of candidates) {
    if (out.length >= limit) break;
    try {
      const { matches, isTarget } = await selects(locator.xpath);
      if (matches === 1 && isTarget) out.push({ ...locator, matches });
    } catch {
      // A candidate the engine rejects is dropped; the others still stand.
    }
  }
  return out;
}
