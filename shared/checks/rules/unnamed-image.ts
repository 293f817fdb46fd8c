import { describeNode, isToolkitMissingNameText } from '../facts.js';
import type { Rule } from '../model.js';

const GRAPHIC_ROLES = new Set(['Image', 'Icon', 'Animation', 'Canvas', 'Chart', 'ImageMap']);

export const unnamedImage: Rule = {
  id: 'unnamed-image',
  severity: 'warning',
  title: 'An image or graphic has no name',
  wcag: ['1.1.1 Non-text Content'],
  help:
    'An image that carries information needs a text alternative. A purely decorative image should not be exposed ' +
    'to assistive technology at all (an empty alt in HTML, or not made accessible in the toolkit).',
  check(node) {
    if (node.namespace !== 'control' || !GRAPHIC_ROLES.has(node.role)) return [];
    if (isToolkitMissingNameText(node.name)) {
      return [{ message: `${node.role} has no text alternative (the toolkit shows "${node.name.trim()}" instead)` }];
    }
    if (node.name.trim() !== '') return [];
    return [{ message: `${describeNode(node)} has no text alternative` }];
  },
};
