import { describeNode, isActionable } from '../facts.js';
import type { CheckNode, Rule } from '../model.js';

function twinKey(node: CheckNode, name: string): string {
  return `${node.namespace}\n${node.role}\n${name}`;
}

/** A parent's named actionable children by namespace, role and name, made once per parent (not once per child). */
const groupsByParent = new WeakMap<CheckNode, ReadonlyMap<string, readonly CheckNode[]>>();

function twinsOf(node: CheckNode, parent: CheckNode, name: string): readonly CheckNode[] {
  let groups = groupsByParent.get(parent);
  if (!groups) {
    const made = new Map<string, CheckNode[]>();
    for (const sibling of parent.children) {
      const siblingName = sibling.name.trim();
      if (!siblingName || !isActionable(sibling)) continue;
      const key = twinKey(sibling, siblingName);
      const group = made.get(key);
      if (group) group.push(sibling);
      else made.set(key, [sibling]);
    }
    groupsByParent.set(parent, (groups = made));
  }
  return groups.get(twinKey(node, name)) ?? [];
}

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
    const twins = twinsOf(node, parent, name);
    // Reported on every twin after the first, so each group gives (count - 1) findings that point somewhere new.
    if (twins.length < 2 || twins[0] === node) return [];
    return [{ message: `${describeNode(node)} has ${twins.length - 1} sibling(s) with the same role and name` }];
  },
};
