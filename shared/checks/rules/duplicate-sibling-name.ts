import { describeNode, isActionable } from '../facts.js';
import type { Rule } from '../model.js';

export const duplicateSiblingName: Rule = {
  id: 'duplicate-sibling-name',
  severity: 'warning',
  title: 'Sibling elements one can act on share the same role and name',
  wcag: ['2.4.6 Headings and Labels', '4.1.2 Name, Role, Value'],
  help:
    'Two "Delete" buttons side by side cannot be told apart by a screen reader user or by a locator. Name each ' +
    'after what it acts on ("Delete row 3"), or add a description.',
  check(node) {
    const name = node.name.trim();
    const parent = node.parent;
    if (!name || !parent || !isActionable(node)) return [];
    const twins = parent.children.filter(
      (sibling) =>
        sibling.role === node.role &&
        sibling.namespace === node.namespace &&
        sibling.name.trim() === name &&
        isActionable(sibling),
    );
    // Reported on every twin after the first, so each group gives (count - 1) findings that point somewhere new.
    if (twins.length < 2 || twins[0] === node) return [];
    return [{ message: `${describeNode(node)} has ${twins.length - 1} sibling(s) with the same role and name` }];
  },
};
