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

const wordsOfRoles = new Map<string, string>();

/** `CheckBox` -> `check box`, `item:ListItem` -> `list item`: how a role reads as words (made once per role). */
function roleWords(node: CheckNode): string {
  let words = wordsOfRoles.get(node.role);
  if (words === undefined) {
    words = node.role.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
    wordsOfRoles.set(node.role, words);
  }
  return words;
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
    if (lower === roleWords(node) || lower === node.role.toLowerCase()) {
      return [{ message: `${describeNode(node)} is named after its role` }];
    }
    if (FILE_NAME.test(name) || PATH.test(name))
      return [{ message: `${describeNode(node)} is named by a file name or path` }];
    if (PLACEHOLDERS.has(lower)) return [{ message: `${describeNode(node)} has a placeholder for a name` }];
    return [];
  },
};
