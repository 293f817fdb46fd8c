import { describeNode, isActionable, isFocusable, isTextContent, isWindowLike } from '../facts.js';
import type { CheckNode, Rule } from '../model.js';
import { isFormField } from './unlabelled-field.js';

const NAME_FROM_CONTENT_DEPTH = 2;

/** Whether a descendant close below carries a name, which assistive technology reads as the node's content. */
function hasNamedContent(node: CheckNode, depth = NAME_FROM_CONTENT_DEPTH): boolean {
  if (depth === 0) return false;
  return node.children.some((child) => child.name.trim() !== '' || hasNamedContent(child, depth - 1));
}

export const unnamedControl: Rule = {
  id: 'unnamed-control',
  severity: 'error',
  title: 'An element that takes focus or can be acted on has no name',
  wcag: ['4.1.2 Name, Role, Value'],
  help:
    'A screen reader announces such an element by its role alone ("button"), and a test cannot find it by name. ' +
    "Give it an accessible name: a label, a text, or the toolkit's accessible-name property.",
  check(node) {
    if (node.name.trim() !== '' || node.namespace === 'app' || isWindowLike(node) || isFormField(node)) return [];
    if (isTextContent(node)) return [];
    if (!isFocusable(node) && !isActionable(node)) return [];
    if (hasNamedContent(node)) return [];
    return [{ message: `${describeNode(node)} can be focused or acted on but has no accessible name` }];
  },
};
