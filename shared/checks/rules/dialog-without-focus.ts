import { describeNode, isFocusable, isShowing } from '../facts.js';
import type { CheckNode, Rule } from '../model.js';

const DIALOG_ROLES = new Set(['Dialog', 'Alert', 'FileChooser', 'ColorChooser', 'FontChooser']);
/** Dialogs are small; a bound keeps a runaway tree from making this rule quadratic. */
const MAX_NODES_SEARCHED = 5000;

function hasFocusableDescendant(dialog: CheckNode): boolean {
  const stack = [...dialog.children];
  for (let seen = 0; stack.length > 0 && seen < MAX_NODES_SEARCHED; seen++) {
    const node = stack.pop()!;
    if (isFocusable(node)) return true;
    stack.push(...node.children);
  }
  return stack.length > 0;
}

export const dialogWithoutFocus: Rule = {
  id: 'dialog-without-focus',
  severity: 'error',
  title: 'A dialog has nothing that can take the keyboard focus',
  wcag: ['2.1.1 Keyboard', '2.4.3 Focus Order'],
  help:
    'A keyboard user cannot answer or close a dialog in which nothing takes focus. Make its buttons focusable and ' +
    'move the focus into the dialog when it opens.',
  check(node) {
    if (node.namespace !== 'control' || !DIALOG_ROLES.has(node.role)) return [];
    if (node.attributes.size > 0 && node.attributes.has('IsVisible') && !isShowing(node)) return [];
    if (hasFocusableDescendant(node)) return [];
    return [{ message: `${describeNode(node)} contains nothing focusable` }];
  },
};
