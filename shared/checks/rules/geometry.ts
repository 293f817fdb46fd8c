import { bounds, describeNode, isShowing, isWindowLike, windowOf } from '../facts.js';
import type { Rule, RuleHit } from '../model.js';

export const geometry: Rule = {
  id: 'geometry',
  severity: 'warning',
  title: 'A showing element has no size or lies outside its window',
  wcag: ['1.3.2 Meaningful Sequence', '2.4.7 Focus Visible'],
  help:
    'An element reported as showing but zero-sized, or placed outside its window, is announced to assistive ' +
    'technology yet cannot be seen or clicked: usually a hidden widget that should not be exposed, or wrong extents.',
  check(node) {
    if (node.namespace === 'app' || isWindowLike(node) || !node.parent || !isShowing(node)) return [];
    const box = bounds(node);
    if (!box) return [];
    const hits: RuleHit[] = [];
    if (box.width <= 0 || box.height <= 0) {
      hits.push({ message: `${describeNode(node)} is showing but has no size (${box.width}×${box.height})` });
      return hits;
    }
    const window = windowOf(node);
    const frame = window && window !== node ? bounds(window) : undefined;
    if (frame && frame.width > 0 && frame.height > 0) {
      const outside =
        box.x >= frame.x + frame.width ||
        box.y >= frame.y + frame.height ||
        box.x + box.width <= frame.x ||
        box.y + box.height <= frame.y;
      if (outside) {
        hits.push({
          message: `${describeNode(node)} at ${box.x}, ${box.y} lies outside its window ${describeNode(window!)} (${frame.x}, ${frame.y} · ${frame.width}×${frame.height})`,
        });
      }
    }
    return hits;
  },
};
