import { describeNode, isToolkitMissingNameText } from '../facts.js';
import type { CheckNode, Rule } from '../model.js';

/** Texts toolkits and authors leave where a real name is missing. */
const PLACEHOLDERS = new Set([
  'untitled',
  'unnamed',
  'image',
  'img',
  'icon',
  'graphic',
  'picture',
  'photo',
  'button',
  'label',
  'text',
  'placeholder',
  'null',
  'undefined',
  'none',
  'todo',
  'click here',
  'gtkbutton',
  'gtklabel',
  'gtkimage',
]);
const FILE_NAME = /\.(png|jpe?g|gif|svg|bmp|ico|webp|tiff?)$/i;
const PATH = /^(\/|[a-z]:\\|~\/|\.\.?\/)|\/(usr|home|tmp|opt)\/|[\\/][^\\/\s]+\.[a-z0-9]{2,4}$/i;

/** `CheckBox` -> `check box`, `item:ListItem` -> `list item`: how a role reads as words. */
function roleWords(node: CheckNode): string {
  return node.role.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

export const poorName: Rule = {
  id: 'poor-name',
  severity: 'warning',
  title: 'A name that says nothing: the role, a file name or a placeholder',
  wcag: ['1.1.1 Non-text Content', '2.4.6 Headings and Labels'],
  help:
    'A name should say what the element is for. "button", "icon.png", "/usr/share/icons/x.svg" or "Untitled" ' +
    'tell a screen reader user nothing; a locator built on them breaks as soon as someone fixes them.',
  check(node) {
    const name = node.name.trim();
    // A toolkit's stand-in for a missing name is the missing-name rules' finding, not a poor name.
    if (!name || node.namespace === 'app' || isToolkitMissingNameText(name)) return [];
    const lower = name.toLowerCase();
    const what = describeNode(node);
    if (lower === roleWords(node) || lower === node.role.toLowerCase()) {
      return [{ message: `${what} is named after its role` }];
    }
    if (FILE_NAME.test(name) || PATH.test(name)) return [{ message: `${what} is named by a file name or path` }];
    if (PLACEHOLDERS.has(lower)) return [{ message: `${what} has a placeholder for a name` }];
    return [];
  },
};
